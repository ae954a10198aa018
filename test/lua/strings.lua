-- bytes, hex, token and uuid: lengths, alphabets, formats, distribution,
-- uniqueness, and the errors for bad sizes.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require("harness")
local vrandom = require("vrandom")

local g = vrandom.new()
local sources = {
  { "vrandom", vrandom },
  -- Methods through a table that passes the generator as self.
  { "generator", setmetatable({}, { __index = function(_, k)
      return function(...) return g[k](g, ...) end
    end }) },
}

local function b64len(n) return math.floor(n / 3) * 4 + (n % 3 > 0 and n % 3 + 1 or 0) end

local b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
local b64val = {}
for i = 1, 64 do b64val[b64:sub(i, i)] = i - 1 end

-- An independent decoder: the token must decode to exactly n bytes, and
-- the unused low bits of a final partial group must be zero (canonical).
-- Arithmetic instead of bit operators, which Lua before 5.3 lacks.
local function unb64(s)
  local out, bits, nbits = {}, 0, 0
  for i = 1, #s do
    local v = b64val[s:sub(i, i)]
    if not v then return nil, "bad character" end
    bits, nbits = bits * 64 + v, nbits + 6
    if nbits >= 8 then
      nbits = nbits - 8
      out[#out + 1] = string.char(math.floor(bits / 2 ^ nbits) % 256)
      bits = bits % 2 ^ nbits
    end
  end
  if bits ~= 0 then return nil, "non-zero padding bits" end
  return table.concat(out)
end

for _, src in ipairs(sources) do
  local name, r = src[1], src[2]
  for _, n in ipairs { 0, 1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 255, 256, 4096, 100000 } do
    local b = r.bytes(n)
    T.eq(type(b) == "string" and #b, n, ("%s.bytes(%d) length"):format(name, n))
    local h = r.hex(n)
    T.eq(#h, 2 * n, ("%s.hex(%d) length"):format(name, n))
    T.check(not h:find("[^0-9a-f]"), ("%s.hex(%d) lowercase hex only"):format(name, n))
    local t = r.token(n)
    T.eq(#t, b64len(n), ("%s.token(%d) length"):format(name, n))
    local d, err = unb64(t)
    T.check(d and #d == n, ("%s.token(%d) decodes to %d bytes (%s)"):format(name, n, n, err or "ok"))
  end
  T.eq(#r.token(), 43, name .. ".token() is 32 bytes, 43 characters")
  T.eq(#r.token(nil), 43, name .. ".token(nil) is the default")
  T.eq(r.bytes(0), "", name .. ".bytes(0)")
  T.eq(r.bytes(2.0):len(), 2, name .. ".bytes(2.0): integral floats accepted")
  T.eq(r.hex("3"):len(), 6, name .. ".hex('3'): numeric strings accepted")

  local uuid = "^%x%x%x%x%x%x%x%x%-%x%x%x%x%-4%x%x%x%-[89ab]%x%x%x%-%x%x%x%x%x%x%x%x%x%x%x%x$"
  local seen, dup, bad, n = {}, 0, 0, T.draws(10000, 20)
  for _ = 1, n do
    local u = r.uuid()
    if not (u:find(uuid) and not u:find("[A-F]")) then
      bad = bad + 1
      if bad < 4 then print("bad uuid: " .. u) end
    end
    if seen[u] then dup = dup + 1 end
    seen[u] = true
  end
  T.eq(bad, 0, ("%s.uuid(): RFC 9562 v4 lowercase, %d of them"):format(name, n))
  T.eq(dup, 0, ("%s.uuid(): %d all distinct"):format(name, n))

  -- The bits a UUID leaves random are uniform: the nibble after the
  -- version and the two low bits of the variant nibble.
  local nib, var = {}, {}
  for _ = 1, T.draws(16000, 16) do
    local u = r.uuid()
    local a = tonumber(u:sub(16, 16), 16) + 1
    local v = tonumber(u:sub(21, 21), 16) - 7
    nib[a] = (nib[a] or 0) + 1
    var[v] = (var[v] or 0) + 1
  end
  T.check(T.chisq(nib, 16) < T.chilimit(15), name .. ".uuid(): random nibbles uniform")
  T.check(T.chisq(var, 4) < T.chilimit(3), name .. ".uuid(): variant nibble uniform over 8-b")

  -- Byte values, and hex and token characters at every position, are
  -- uniform: an in-place encoder that overran its input would not be.
  local counts, total = {}, 0
  for _ = 1, 64 do
    local b = r.bytes(1024)
    for i = 1, #b do
      local c = b:byte(i) + 1
      counts[c] = (counts[c] or 0) + 1
    end
    total = total + #b
  end
  local x = T.chisq(counts, 256)
  T.check(x < T.chilimit(255), ("%s.bytes: byte values uniform (chi-square %.1f)"):format(name, x))

  for _, n in ipairs { 31, 32, 33 } do
    local pos = {}
    for _ = 1, 2000 do
      local t = r.token(n)
      for i = 1, #t - 1 do   -- the last character carries padding bits
        pos[i] = pos[i] or {}
        local v = b64val[t:sub(i, i)] + 1
        pos[i][v] = (pos[i][v] or 0) + 1
      end
    end
    local worst = 0
    for i = 1, #pos do worst = math.max(worst, T.chisq(pos[i], 64)) end
    T.check(worst < T.chilimit(63),
      ("%s.token(%d): every position uniform (worst chi-square %.1f)"):format(name, n, worst))
  end
  local hpos = {}
  for _ = 1, T.draws(3200, 16) do
    local h = r.hex(20)
    for i = 1, #h do
      hpos[i] = hpos[i] or {}
      local v = tonumber(h:sub(i, i), 16) + 1
      hpos[i][v] = (hpos[i][v] or 0) + 1
    end
  end
  local worst = 0
  for i = 1, #hpos do worst = math.max(worst, T.chisq(hpos[i], 16)) end
  T.check(worst < T.chilimit(15), ("%s.hex(20): every position uniform (worst %.1f)"):format(name, worst))

  T.check(r.bytes(32) ~= r.bytes(32), name .. ".bytes: two draws differ")
  T.check(r.token() ~= r.token(), name .. ".token: two draws differ")

  -- Bad input: negative or absurd sizes, wrong types.
  for _, f in ipairs { "bytes", "hex", "token" } do
    T.raises("size out of range", name .. "." .. f .. "(-1)", r[f], -1)
    T.raises("size out of range", name .. "." .. f .. "(minint)", r[f], T.minint)
    T.raises("size out of range", name .. "." .. f .. "(maxint)", r[f], T.maxint)
    if T.ints then
      T.raises("number has no integer representation", name .. "." .. f .. "(1.5)", r[f], 1.5)
    else  -- truncated, as luaL_checkinteger does here
      T.eq(#r.bytes(1.5), 1, name .. ".bytes(1.5) is bytes(1)")
      T.raises("number out of range [-2^53, 2^53]", name .. "." .. f .. "(2^60)", r[f], 2 ^ 60)
    end
    T.raises("number expected, got table", name .. "." .. f .. "({})", r[f], {})
    T.raises("number expected, got string", name .. "." .. f .. "('x')", r[f], "x")
  end
  T.raises("number expected, got no value", name .. ".bytes()", r.bytes)
  T.raises("number expected, got no value", name .. ".hex()", r.hex)
end

g:close()
T.done()
