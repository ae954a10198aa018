-- What random.lua checks only where integers are 64-bit (5.3 and 5.4):
-- random(0), the ends of the integers, and ranges past 2^53.  Loaded by
-- random.lua, whose harness counts these checks too; older parsers
-- would reject the operators.
local T, vrandom = ...
local maxint, minint = math.maxinteger, math.mininteger

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

-- The ends of the integers, and the full range.
do
  local function within(what, lo, up)
    local seen_lo, seen_up, ok = false, false, true
    for _ = 1, 200 do
      local r = vrandom.random(lo, up)
      ok = ok and math.type(r) == "integer" and r >= lo and r <= up
      seen_lo = seen_lo or r == lo
      seen_up = seen_up or r == up
    end
    T.check(ok, what .. ": results in range")
    T.check(seen_lo and seen_up, what .. ": both ends reached")
  end
  within("[maxint-1, maxint]", maxint - 1, maxint)
  within("[minint, minint+1]", minint, minint + 1)
  within("[minint, minint+2]", minint, minint + 2)
  within("[maxint-2, maxint]", maxint - 2, maxint)

  local neg = 0
  for _ = 1, 1000 do
    if vrandom.random(minint, maxint) < 0 then neg = neg + 1 end
  end
  T.check(neg > 350 and neg < 650, "full range: both signs, about evenly")
  -- Just over half the integers: the rejection is at its busiest here.
  local half, hi = 1 << 62, 0
  for _ = 1, 1000 do
    if vrandom.random(-half, half) > 0 then hi = hi + 1 end
  end
  T.check(hi > 350 and hi < 650, "[-2^62, 2^62]: upper half about half the time")
  T.eq(vrandom.random(maxint - 9, maxint) // 16, maxint // 16,
    "random(maxint-9, maxint) stays at the top")
  T.eq(vrandom.random(1 << 62, 1 << 62), 1 << 62, "random(2^62, 2^62)")
end
