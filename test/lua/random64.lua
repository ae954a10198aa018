-- What random.lua checks only where integers are 64-bit (5.3 and 5.4):
-- random(0), the full range and ranges past 2^53.  Loaded by
-- random.lua, whose harness counts these checks too; older parsers
-- would reject the operators.
local T, vrandom = ...
local maxint, minint = math.maxinteger, math.mininteger

-- random(0): each of the 64 bits, stuck or biased.
T.bits("random(0)", 64, function() return vrandom.random(0) end,
  function(v, b) return (v >> b) & 1 end)

-- The full range and past 2^53 (random.lua has checked both ends of the
-- integers already, with T.maxint and T.minint).
do
  -- In 16 cells (harness.lua's T.uniform): the full range; just over
  -- half the integers, where the rejection is at its busiest; 2^63.
  T.uniform("random(minint, maxint)", minint, maxint, vrandom.random)
  T.uniform("random(-2^62, 2^62)", -(1 << 62), 1 << 62, vrandom.random)
  T.uniform("random(0, maxint)", 0, maxint, vrandom.random)
  T.eq(vrandom.random(maxint - 9, maxint) // 16, maxint // 16,
    "random(maxint-9, maxint) stays at the top")
  T.eq(vrandom.random(1 << 62, 1 << 62), 1 << 62, "random(2^62, 2^62)")
end
