-- vrandom.random against math.random: same rules, same messages; ranges,
-- boundaries and uniformity.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require("harness")
local vrandom = require("vrandom")

local maxint, minint = math.maxinteger, math.mininteger

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
}

local function show(c)
  local s = {}
  for i = 1, c.n do s[i] = tostring(c[i]) end
  return "(" .. table.concat(s, ", ") .. ")"
end

-- What a call did: an error message, or the type of the result.
local function outcome(ok, r)
  if not ok then return "error: " .. T.strip(r) end
  return "ok: " .. math.type(r)
end

local function inrange(c, r)
  if c.n == 0 then return r >= 0 and r < 1 end
  if c.n == 1 and math.tointeger(c[1]) == 0 then return true end
  local lo, up = 1, math.tointeger(c[1])
  if c.n == 2 then lo, up = math.tointeger(c[1]), math.tointeger(c[2]) end
  return lo <= r and r <= up
end

local g = vrandom.new()
for _, c in ipairs(cases) do
  -- Called straight from pcall, both report the function's global name.
  local mok, mr = pcall(math.random, table.unpack(c, 1, c.n))
  local vok, vr = pcall(vrandom.random, table.unpack(c, 1, c.n))
  local want = outcome(mok, mr):gsub("math%.random", "vrandom.random")
  T.eq(outcome(vok, vr), want, "vrandom.random" .. show(c))
  if vok and mok then T.check(inrange(c, vr), "in range " .. show(c)) end
  -- As a method, both must report the argument numbers of the caller.
  mok, mr = pcall(function() local r = math.random(table.unpack(c, 1, c.n)); return r end)
  vok, vr = pcall(function() local r = g:random(table.unpack(c, 1, c.n)); return r end)
  T.eq(outcome(vok, vr), outcome(mok, mr), "g:random" .. show(c))
  if vok and mok then T.check(inrange(c, vr), "g:random in range " .. show(c)) end
end
T.raises("vrandom.generator expected", "random with a bad self",
  function() local r = g.random({}) return r end)

-- Floats: [0, 1), multiples of 2^-53, and the top bits really vary.
do
  local ok, low, high = true, 1, 0
  for _ = 1, 20000 do
    local x = vrandom.random()
    ok = ok and math.type(x) == "float" and x >= 0 and x < 1 and
      x * 2 ^ 53 == math.floor(x * 2 ^ 53)
    if x < low then low = x end
    if x > high then high = x end
  end
  T.check(ok, "random() is a float in [0,1) on the 2^-53 grid")
  T.check(low < 0.001 and high > 0.999, "random() spans [0,1)")
end

-- random(0): every one of the 64 bits is set about half the time.
do
  local n, counts = 8000, {}
  for b = 0, 63 do counts[b] = 0 end
  for _ = 1, n do
    local v = vrandom.random(0)
    for b = 0, 63 do
      if v & (1 << b) ~= 0 then counts[b] = counts[b] + 1 end
    end
  end
  local ok = true
  for b = 0, 63 do   -- 10 standard deviations either side
    if math.abs(counts[b] - n / 2) > 10 * math.sqrt(n / 4) then
      ok = false
      print(("bit %d set %d times of %d"):format(b, counts[b], n))
    end
  end
  T.check(ok, "random(0) sets each of the 64 bits half the time")
end

-- Boundaries: intervals at both ends of the integers, and the full range.
local function within(what, lo, up, want_lo, want_up)
  local seen_lo, seen_up, ok = false, false, true
  for _ = 1, 200 do
    local r = vrandom.random(lo, up)
    ok = ok and math.type(r) == "integer" and r >= lo and r <= up
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
do
  local neg, pos = 0, 0
  for _ = 1, 1000 do
    if vrandom.random(minint, maxint) < 0 then neg = neg + 1 else pos = pos + 1 end
  end
  T.check(neg > 350 and pos > 350, "full range: both signs, about evenly")
  -- Just over half the integers: the rejection is at its busiest here.
  local half, hi = 1 << 62, 0
  for _ = 1, 1000 do
    if vrandom.random(-half, half) > 0 then hi = hi + 1 end
  end
  T.check(hi > 350 and hi < 650, "[-2^62, 2^62]: upper half about half the time")
end

-- Uniformity: chi-square over small ranges, where a biased reduction
-- (plain modulo of a narrower draw, an off-by-one) would show.
local function uniform(what, lo, up, n, f)
  local k, counts = up - lo + 1, {}
  for _ = 1, n do
    local i = f(lo, up) - lo + 1
    counts[i] = (counts[i] or 0) + 1
  end
  local x, limit = T.chisq(counts, k), T.chilimit(k - 1)
  T.check(x < limit, ("%s: chi-square %.1f < %.1f"):format(what, x, limit))
  T.check(#counts == k and counts[0] == nil and counts[k + 1] == nil,
    what .. ": every value and nothing else")
end
uniform("random(1, 6)", 1, 6, 60000, vrandom.random)
uniform("random(-5, 4)", -5, 4, 60000, vrandom.random)
uniform("random(10)", 1, 10, 60000, function(_, up) return vrandom.random(up) end)
uniform("g:random(1, 7)", 1, 7, 70000, function(lo, up) return g:random(lo, up) end)
uniform("random(maxint-9, maxint)", maxint - 9, maxint, 50000, vrandom.random)
uniform("random() in 16 buckets", 0, 15, 64000,
  function() return math.floor(vrandom.random() * 16) end)

-- Byte economy: each bound draws 1, 2, 4 or 8 bytes.  At the edges of
-- each width, results stay in range and reach both ends, and buckets of
-- equal size fill evenly.
do
  for _, m in ipairs { 255, 256, 257 } do
    uniform(("random(%d)"):format(m), 1, m, m * 200,
      function(_, up) return vrandom.random(up) end)
  end
  local function buckets(what, m, n)
    local k, counts, ok = 16, {}, true
    for _ = 1, n do
      local r = vrandom.random(m)
      ok = ok and r >= 1 and r <= m
      local i = (r - 1) // (m // k) + 1
      counts[i] = (counts[i] or 0) + 1
    end
    T.check(ok, what .. ": in range")
    local x, limit = T.chisq(counts, k), T.chilimit(k - 1)
    T.check(x < limit, ("%s: chi-square %.1f < %.1f"):format(what, x, limit))
  end
  buckets("random(2^16)", 1 << 16, 32000)
  buckets("random(2^16 + 16)", (1 << 16) + 16, 32000)
  buckets("random(2^32)", 1 << 32, 32000)
  buckets("random(2^32 + 16)", (1 << 32) + 16, 32000)
  buckets("random(2^40)", 1 << 40, 32000)
  -- Just above each width: the top value needs the next width.
  for _, m in ipairs { 257, 65537 } do
    local top = false
    for _ = 1, m * 20 do
      if vrandom.random(m) == m then top = true break end
    end
    T.check(top, ("random(%d) reaches %d"):format(m, m))
  end
  for _, m in ipairs { (1 << 32) - 1, (1 << 32) + 1 } do
    local hi = 0
    for _ = 1, 4000 do
      if vrandom.random(m) > m // 2 then hi = hi + 1 end
    end
    T.check(hi > 1700 and hi < 2300, ("random(%d): upper half about half"):format(m))
  end
  -- Floats from 7 bytes: all 53 bits vary.
  local any, all = 0, (1 << 53) - 1
  for _ = 1, 256 do
    local v = math.tointeger(vrandom.random() * 2.0 ^ 53)
    any, all = any | v, all & v
  end
  T.eq(any, (1 << 53) - 1, "random(): every one of 53 bits set at times")
  T.eq(all, 0, "random(): every one of 53 bits clear at times")
end

g:close()
T.done()
