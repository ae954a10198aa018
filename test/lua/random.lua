-- vrandom.random against math.random: the rules and messages of the Lua
-- it runs under; ranges, boundaries and uniformity.  Where integers are
-- doubles (5.1, 5.2, LuaJIT), the limit at 2^53 and the statistics next
-- to it; where they are 64-bit, random64.lua adds what needs them.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local T = require("harness")
local vrandom = require("vrandom")

local maxint, minint, unpack = T.maxint, T.minint, T.unpack
local two53 = 2 ^ 53

-- Every shape of argument list math.random distinguishes, and the ways
-- each argument can be wrong.
local cases = {
  { n = 0 },
  { n = 1, 0 }, { n = 1, 1 }, { n = 1, 10 }, { n = 1, -1 }, { n = 1, minint },
  { n = 1, maxint }, { n = 1, 3.0 }, { n = 1, 1.5 }, { n = 1, "10" },
  { n = 1, "0x10" }, { n = 1, "x" }, { n = 1, "1.5" }, { n = 1, nil },
  { n = 1, true }, { n = 1, {} }, { n = 1, math.huge }, { n = 1, 0 / 0 },
  { n = 1, 2.0 ^ 63 }, { n = 1, -2.0 ^ 63 },
  { n = 2, 1, 6 }, { n = 2, 6, 1 }, { n = 2, 5, 5 }, { n = 2, -3, 3 },
  { n = 2, minint, maxint }, { n = 2, maxint, minint }, { n = 2, 0, 0 },
  { n = 2, 1, 2.5 }, { n = 2, 1.5, 2 }, { n = 2, 1, nil }, { n = 2, nil, 1 },
  { n = 2, "1", "2" }, { n = 2, 1, "y" }, { n = 2, 2.0 ^ 63, 1 },
  { n = 3, 1, 2, 3 }, { n = 3, 1, 2, nil }, { n = 4, 1, 2, 3, 4 },
  -- Just past 2^53: the limit where integers are doubles.
  { n = 1, two53 + 2 }, { n = 2, -two53 - 2, 0 }, { n = 2, 0, two53 + 2 },
  { n = 2, "x", two53 + 2 }, { n = 2, two53 + 2, "x" },
}

local function show(c)
  local s = {}
  for i = 1, c.n do s[i] = tostring(c[i]) end
  return "(" .. table.concat(s, ", ") .. ")"
end

-- What a call did: an error message, or the type of the result.
local function outcome(ok, r)
  if not ok then return "error: " .. T.strip(r) end
  return "ok: " .. T.type(r)
end

local function trunc(x) return x >= 0 and math.floor(x) or math.ceil(x) end
local function toint(x)
  if T.ints then return math.tointeger(x) end
  return trunc(tonumber(x))
end

-- vrandom's rule where integers are doubles, as documented in
-- vrandom-lua(3): 5.1's math.random (arguments truncated toward zero,
-- an empty interval blamed on its last bound, random(0) empty) with each
-- bound checked against 2^53 right after its type.  name is the function
-- as the message names it.
local function rule(c, name)
  local function bad(i, msg)
    return ("error: bad argument #%d to '%s' (%s)"):format(i, name, msg)
  end
  if c.n > 2 then return "error: wrong number of arguments" end
  if c.n == 0 then return "ok: float" end
  local v = {}
  for i = 1, c.n do
    local t = type(c[i])
    v[i] = (t == "number" or t == "string") and tonumber(c[i]) or nil
    if v[i] == nil then
      return bad(i, "number expected, got " .. (t == "string" and t or type(c[i])))
    end
    if not (v[i] >= -two53 and v[i] <= two53) then
      return bad(i, "number out of range [-2^53, 2^53]")
    end
  end
  local lo, up = 1, trunc(v[1])
  if c.n == 2 then lo, up = trunc(v[1]), trunc(v[2]) end
  if lo > up then return bad(c.n, "interval is empty") end
  return "ok: integer"
end

-- Whether math.random of this Lua can serve as the reference for c: 5.1
-- truncates its arguments to int, and LuaJIT checks none.
local function mathref(c)
  if T.lua == "luajit" then return false end
  if T.lua ~= "5.1" then return true end
  for i = 1, math.min(c.n, 2) do
    local x = tonumber(c[i])
    if x and not (math.abs(x) < 2 ^ 31) then return false end
  end
  return true
end

-- What vrandom must do, given what math.random did.  Integer Luas: the
-- same, but 5.3's math.random refuses random(0) and spans past
-- maxinteger, which vrandom gives as 5.4 does.  Double-only Luas: the rule
-- above, which must agree with math.random wherever that is the reference.
local unname
local function expect(c, mok, mr, name)
  local m = outcome(mok, mr)
  if T.ints then
    if T.lua == "5.3" and (c.n == 1 and toint(c[1]) == 0 or
        not mok and tostring(mr):find("interval too large", 1, true)) then
      return "ok: integer"
    end
    return m
  end
  local want = rule(c, name)
  if mathref(c) and not want:find("out of range", 1, true) then
    -- 5.2's math.random keeps fractions (random(1.5, 2) can be 2.5): only
    -- error against success, and the messages, are compared.  random()
    -- is a float in [0, 1) even when it is 0, as musl's rand() makes the
    -- first one, which a double-only Lua cannot tell from the integer.
    local m2 = m:gsub("^ok: %a+", c.n > 0 and "ok: integer" or "ok: float")
    T.eq(want, name == "?" and unname(m2) or m2,
      "the rule agrees with math.random" .. show(c))
  end
  return want
end

-- A function called straight from pcall is named as a global where the
-- Lua finds one (5.2 in _G, 5.3 on in package.loaded as well), else "?".
unname = function(s)
  return (s:gsub("to '[^']*'", "to '?'"))
end

local function inrange(c, r)
  if c.n == 0 then return r >= 0 and r < 1 end
  if c.n == 1 and toint(c[1]) == 0 then return true end
  local lo, up = 1, toint(c[1])
  if c.n == 2 then lo, up = toint(c[1]), toint(c[2]) end
  return lo <= r and r <= up
end

local g = vrandom.new()
for _, c in ipairs(cases) do
  -- Called straight from pcall, both report the function's global name
  -- (5.3 on; "?" before).
  local mok, mr = pcall(math.random, unpack(c, 1, c.n))
  local vok, vr = pcall(vrandom.random, unpack(c, 1, c.n))
  local want = expect(c, mok, mr, "?"):gsub("math%.random", "vrandom.random")
  T.eq(unname(outcome(vok, vr)), unname(want), "vrandom.random" .. show(c))
  if vok then T.check(inrange(c, vr), "in range " .. show(c)) end
  -- As a method, both must report the argument numbers of the caller.
  mok, mr = pcall(function() local r = math.random(unpack(c, 1, c.n)); return r end)
  vok, vr = pcall(function() local r = g:random(unpack(c, 1, c.n)); return r end)
  T.eq(outcome(vok, vr), expect(c, mok, mr, "random"), "g:random" .. show(c))
  if vok then T.check(inrange(c, vr), "g:random in range " .. show(c)) end
end
T.raises("vrandom.generator expected", "random with a bad self",
  function() local r = g.random({}) return r end)

-- Floats: [0, 1), multiples of 2^-53, and the top bits really vary:
-- the lowest of n below 20/n, the highest above 1 - 20/n (each missed
-- once in e^20).
do
  local ok, low, high, n = true, 1, 0, T.draws(20000, 40)
  for _ = 1, n do
    local x = vrandom.random()
    ok = ok and (not T.ints or math.type(x) == "float") and x >= 0 and x < 1 and
      x * 2 ^ 53 == math.floor(x * 2 ^ 53)
    if x < low then low = x end
    if x > high then high = x end
  end
  T.check(ok, "random() is a float in [0,1) on the 2^-53 grid")
  T.check(low < 20 / n and high > 1 - 20 / n, "random() spans [0,1)")
end

-- Boundaries: intervals at both ends of the integers (of 2^53 where
-- integers are doubles), and the full range.
local function within(what, lo, up, want_lo, want_up)
  local seen_lo, seen_up, ok = false, false, true
  for _ = 1, 200 do
    local r = vrandom.random(lo, up)
    ok = ok and T.type(r) == "integer" and r >= lo and r <= up
    seen_lo = seen_lo or r == lo
    seen_up = seen_up or r == up
  end
  T.check(ok, what .. ": results in range")
  if want_lo then T.check(seen_lo, what .. ": low end reached") end
  if want_up then T.check(seen_up, what .. ": high end reached") end
end
within("[maxint-1, maxint]", maxint - 1, maxint, true, true)
within("[minint, minint+1]", minint, minint + 1, true, true)
within("[minint, minint+2]", minint, minint + 2, true, true)
within("[maxint-2, maxint]", maxint - 2, maxint, true, true)
within("[-1, 0]", -1, 0, true, true)
within("[minint, -1]", minint, -1)
within("[0, maxint]", 0, maxint)
within("[minint, maxint]", minint, maxint)
T.eq(vrandom.random(minint, minint), minint, "random(minint, minint)")
T.eq(vrandom.random(maxint, maxint), maxint, "random(maxint, maxint)")
T.eq(vrandom.random(1), 1, "random(1)")

-- Uniformity over small ranges, where a biased reduction (plain modulo
-- of a narrower draw, an off-by-one) would show: one cell a value, the
-- sample what finds one value 5% too often (harness.lua's T.uniform).
local function one(_, up) return vrandom.random(up) end
T.uniform("random(1, 6)", 1, 6, vrandom.random)
T.uniform("random(-5, 4)", -5, 4, vrandom.random)
T.uniform("random(10)", 1, 10, one)
T.uniform("g:random(1, 7)", 1, 7, function(lo, up) return g:random(lo, up) end)
T.uniform("random(maxint-9, maxint)", maxint - 9, maxint, vrandom.random)
T.uniform("random(minint, minint+9)", minint, minint + 9, vrandom.random)
T.uniform("random() in 16 buckets", 0, 15,
  function() return math.floor(vrandom.random() * 16) end)

-- Byte economy: each bound draws 1, 2, 4 or 8 bytes.  Just above each
-- power of two that changes the width (and near 2^53, where doubles stop
-- holding every integer), in 16 cells: the sample finds one sixteenth of
-- the range 5% too often.  At the edges results reach both ends.
do
  for _, m in ipairs { 129, 257, 2 ^ 16 + 1, 2 ^ 32 + 1, 2 ^ 53 } do
    T.uniform(("random(%.0f)"):format(m), 1, m, one)
  end
  -- random(m, n) at the same widths, away from 1.
  for _, w in ipairs { 2 ^ 7 + 1, 2 ^ 15 + 1, 2 ^ 31 + 1, 2 ^ 52 + 1 } do
    T.uniform(("random(-1000, %.0f)"):format(w - 1001), -1000, w - 1001, vrandom.random)
  end
  -- Just above each width: the top value needs the next width (65537's
  -- takes some 65,000 draws: the full run's alone, see T.draws).
  for _, m in ipairs(T.scale < 1 and { 257 } or { 257, 65537 }) do
    local top = false
    for _ = 1, m * 20 do
      if vrandom.random(m) == m then top = true break end
    end
    T.check(top, ("random(%d) reaches %d"):format(m, m))
  end
  for _, m in ipairs { 2 ^ 32 - 1, 2 ^ 32 + 1 } do
    local hi, n = 0, T.draws(4000, 8)
    for _ = 1, n do
      if vrandom.random(m) > math.floor(m / 2) then hi = hi + 1 end
    end
    T.check(T.about_half(hi, n), ("random(%.0f): upper half about half"):format(m))
  end
  -- Floats from 7 bytes: each of the 53 bits, stuck or biased.
  T.bits("random() * 2^53", 53, function() return vrandom.random() * 2 ^ 53 end)
end

-- Near 2^53, where doubles stop holding every integer: no value outside
-- the range, every one exact, and both parities (a float scaled to the
-- range would give even values only, above 2^52 or so, or round past the
-- end).  Run everywhere; it matters most where integers are doubles.
do
  local function parity(what, lo, up, n)
    local odd, ok = 0, true
    for _ = 1, n do
      local r = vrandom.random(lo, up)
      ok = ok and T.type(r) == "integer" and r >= lo and r <= up
      if r % 2 == 1 then odd = odd + 1 end
    end
    T.check(ok, what .. ": integers in range")
    T.check(T.about_half(odd, n),
      ("%s: odd %d of %d, about half"):format(what, odd, n))
  end
  parity("random(2^52, 2^53)", 2 ^ 52, two53, T.draws(4000, 8))
  parity("random(-2^53, -2^52)", -two53, -2 ^ 52, T.draws(4000, 8))
  parity("random(-2^53, 2^53)", -two53, two53, T.draws(4000, 8))
  parity("random(1, 2^53)", 1, two53, T.draws(4000, 8))
  parity("random(2^53 - 1000, 2^53)", two53 - 1000, two53, T.draws(4000, 8))
  T.uniform("random(2^53-9, 2^53)", two53 - 9, two53, vrandom.random)
  T.uniform("random(-2^53, -2^53+9)", -two53, -two53 + 9, vrandom.random)
  local hi, n = 0, T.draws(4000, 8)
  for _ = 1, n do
    if vrandom.random(two53) > 2 ^ 52 then hi = hi + 1 end
  end
  T.check(T.about_half(hi, n), "random(2^53): upper half about half")
end
if not T.ints then
  for _, c in ipairs { { two53 + 2 }, { 0, two53 + 2 }, { -two53 - 2, 0 },
      { 1, math.huge }, { 1, 0 / 0 }, { -math.huge, 1 }, { 2 ^ 63 } } do
    T.raises("number out of range [-2^53, 2^53]", "random" .. show { n = #c, unpack(c) },
      vrandom.random, unpack(c))
  end
  T.raises("interval is empty", "random(0): an error here", vrandom.random, 0)
end

if T.ints then
  local chunk = assert(loadfile(here .. "/random64.lua"))
  chunk(T, vrandom)
end

g:close()
T.done()
