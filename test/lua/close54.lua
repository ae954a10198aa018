-- <close>, which parsers before 5.4 reject: loaded by generator.lua on
-- 5.4 only.  A generator in a to-be-closed variable gives its state back
-- at the end of its scope, and when a coroutine ends.
local T, vrandom, states, base = ...

do
  local g <close> = vrandom.new()
  states(base + 1, "<close> generator in scope")
  T.eq(#g:bytes(8), 8, "<close> generator draws")
end
states(base, "<close> generator out of scope")

local n, cos = 20, {}
for i = 1, n do
  cos[i] = coroutine.wrap(function()
    local g <close> = vrandom.new()
    coroutine.yield(g:bytes(16))
    return nil
  end)
end
local seen, dup = {}, 0
for i = 1, n do
  local v = cos[i]()
  if seen[v] then dup = dup + 1 end
  seen[v] = true
end
states(base + n, "20 coroutines with <close> generators")
T.eq(dup, 0, "20 coroutines' outputs distinct")
for i = 1, n do cos[i]() end   -- to their end: <close> fires
states(base, "<close> in finished coroutines")

local ok = pcall(function()
  local g <close> = vrandom.new()
  states(base + 1, "<close> generator before an error")
  error("boom")
end)
T.check(not ok, "the error propagated")
states(base, "<close> generator closed by an error")
