-- Two builds of the module side by side in one process, for a change's
-- effect on speed: A and B are paths to two vrandom.so files, each
-- loaded with package.loadlib (its own runtime), timed in alternating
-- rounds, medians of 9.  Swap A and B for a control.  Generators are left
-- out: both modules register their metatable under one name, and the
-- second one's methods would serve both.
--   lua5.4 bench/lua_ab.lua A/vrandom.so B/vrandom.so
-- Written for every Lua from 5.1.
local A = assert(package.loadlib(assert(arg[1], "two paths"), "luaopen_vrandom"))()
local B = assert(package.loadlib(assert(arg[2], "two paths"), "luaopen_vrandom"))()
local rounds, n = 9, 300000
local clock = os.clock

local function median(t)
  table.sort(t)
  return t[math.floor((#t + 1) / 2)]
end

local function time(f)
  local t0 = clock()
  f(n)
  return (clock() - t0) * 1e9 / n
end

local function duel(fa, fb)
  local ta, tb = {}, {}
  fa(n / 10); fb(n / 10)
  for r = 1, rounds do
    if r % 2 == 1 then
      ta[r] = time(fa); tb[r] = time(fb)
    else
      tb[r] = time(fb); ta[r] = time(fa)
    end
  end
  return median(ta), median(tb)
end

local cases = {
  { "random(1, 6)", function(m) local f = m.random
      return function(k) for _ = 1, k do f(1, 6) end end end },
  { "random()", function(m) local f = m.random
      return function(k) for _ = 1, k do f() end end end },
  { "bytes(16)", function(m) local f = m.bytes
      return function(k) for _ = 1, k do f(16) end end end },
  { "hex(8)", function(m) local f = m.hex
      return function(k) for _ = 1, k do f(8) end end end },
  { "uuid()", function(m) local f = m.uuid
      return function(k) for _ = 1, k do f() end end end },
}
local f = io.open("/proc/loadavg")
local load = f and f:read("*l"):match("^(%S+ %S+ %S+)") or "?"
if f then f:close() end
print(("%s, A binding %s, B binding %s, load average %s"):format(
  rawget(_G, "jit") and jit.version or _VERSION, A.info().binding or "classic",
  B.info().binding or "classic", load))
for _, c in ipairs(cases) do
  local a, b = duel(c[2](A), c[2](B))
  print(("  %-13s A %7.1f ns   B %7.1f ns   B/A %.2f"):format(c[1], a, b, b / a))
end
