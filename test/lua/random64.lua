-- What random.lua checks only where integers are 64-bit (5.3 and 5.4):
-- random(0), the full range and ranges past 2^53.  Loaded by
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

-- The full range and past 2^53 (random.lua has checked both ends of the
-- integers already, with T.maxint and T.minint).
do
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
