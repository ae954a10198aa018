-- Lua side of the benchmark: vrandom against what scripts use today,
-- side by side in one run.  Rounds alternate between the two contenders
-- so that both see the same machine; each side reports its median round.
--   make bench-lua        (or: LUA_CPATH=.../?.so lua5.4 bench/lua_bench.lua [rounds])
--   sh scripts/lua-versions-test.sh --bench   (under each Lua from 5.1)
-- Written for every Lua from 5.1: no integer division, no table.pack.
local vrandom = require("vrandom")

local rounds = tonumber(arg and arg[1]) or 9
local clock = os.clock   -- CPU time, system time included: syscalls count

-- ns per call of f, run n times in a tight loop.
local function time(f, n)
  local t0 = clock()
  f(n)
  return (clock() - t0) * 1e9 / n
end

local function median(t)
  table.sort(t)
  return t[math.floor((#t + 1) / 2)]
end

-- Alternate a and b for the given rounds; median ns per call of each.
local function duel(a, b, n)
  local ta, tb = {}, {}
  a(math.floor(n / 10)); b(math.floor(n / 10))   -- warm up: first-call setup, page faults
  for r = 1, rounds do
    if r % 2 == 1 then
      ta[#ta + 1] = time(a, n); tb[#tb + 1] = time(b, n)
    else
      tb[#tb + 1] = time(b, n); ta[#ta + 1] = time(a, n)
    end
  end
  return median(ta), median(tb)
end

local function loop(f, ...)
  local args, unpack = { n = select("#", ...), ... }, table.unpack or unpack
  return function(n)
    for _ = 1, n do f(unpack(args, 1, args.n)) end
  end
end
-- Tight loops without the vararg plumbing, for the cheap calls.
local vr, mr = vrandom.random, math.random
local function vloop(n) for _ = 1, n do vr() end end
local function mloop(n) for _ = 1, n do mr() end end

local urandom = assert(io.open("/dev/urandom", "rb"))
-- Unbuffered is how random bytes should be read: a stdio buffer holds
-- bytes that a forked child would hand out a second time.
assert(urandom:setvbuf("no"))
local buffered = assert(io.open("/dev/urandom", "rb"))
local vbytes = vrandom.bytes
local function bloop(n) for _ = 1, n do vbytes(16) end end
local function uloop(n) for _ = 1, n do urandom:read(16) end end
local function fbloop(n) for _ = 1, n do buffered:read(16) end end

-- The reference points: an empty C function, raw vDSO calls (bench/vrbench).
local okb, vrbench = pcall(require, "vrbench")
if not okb then vrbench = nil end
local nop = vrbench and vrbench.nop
local function noploop(n) for _ = 1, n do nop() end end
local function emptyloop(n) for _ = 1, n do end end

local function machine()
  local cpu = "unknown"
  local f = io.open("/proc/cpuinfo")
  if f then
    for l in f:lines() do
      local m = l:match("^model name%s*:%s*(.-)%s*$")
      if m then cpu = m break end
    end
    f:close()
  end
  local p = io.popen("uname -srm")
  local k = p and p:read("*l") or "unknown"
  if p then p:close() end
  return cpu, k
end

local info = vrandom.info()
local cpu, kernel = machine()
print(("cpu: %s\nkernel: %s"):format(cpu, kernel))
local lua = rawget(_G, "jit") and jit.version or _VERSION
print(("%s, %s, backend %s, binding %s, %d rounds alternating, medians"):format(
  vrandom._VERSION, lua, info.backend, info.binding or "classic", rounds))

local v, m = duel(vloop, mloop, 1000000)
print(("lua: vrandom.random()     %7.1f ns   math.random()     %7.1f ns   " ..
  "ratio %.2fx the time"):format(v, m, v / m))

local vr16 = function(n) for _ = 1, n do vr(1, 6) end end
local mr16 = function(n) for _ = 1, n do mr(1, 6) end end
local v16, m16 = duel(vr16, mr16, 1000000)
print(("lua: vrandom.random(1, 6) %7.1f ns   math.random(1, 6) %7.1f ns   " ..
  "ratio %.2fx the time (reported: the kernel's ChaCha20 is the floor)"):format(
  v16, m16, v16 / m16))

-- What the binding adds: a call's time less the kernel's share (a raw vDSO
-- call of the same bytes, looped in C) and the loop itself, against an
-- empty C function called the same way.
if nop and vrbench.raw(7, 1) then
  local raw7 = function(n) vrbench.raw(7, n) end
  local raw1 = function(n) vrbench.raw(1, n) end
  local tnop, tempty = duel(noploop, emptyloop, 1000000)
  local k7 = duel(raw7, emptyloop, 1000000)
  local k1 = duel(raw1, emptyloop, 1000000)
  local call = tnop - tempty
  print(("lua: empty C function call %6.1f ns   empty loop %.1f ns   " ..
    "raw vDSO 7 B %.1f ns, 1 B %.1f ns"):format(call, tempty, k7, k1))
  -- The kernel's floor, side by side: a die and a float against the raw
  -- call of the bytes they take (1 and 7).
  -- The targets are LuaJIT's FFI path's; a classic call costs more.
  local target = info.binding == "ffi" and " (target <= 1.3x)" or ""
  local d16, r1 = duel(vr16, raw1, 1000000)
  print(("lua: vrandom.random(1, 6) %7.1f ns   raw vDSO 1 B  %7.1f ns   " ..
    "ratio %.2fx the time%s"):format(d16, r1, d16 / r1, target))
  local dv, r7 = duel(vloop, raw7, 1000000)
  print(("lua: vrandom.random()     %7.1f ns   raw vDSO 7 B  %7.1f ns   " ..
    "ratio %.2fx the time%s"):format(dv, r7, dv / r7, target))
  local over = v - tempty - k7
  print(("lua: binding overhead, random():     %6.1f ns = %.2fx an empty C call " ..
    "(target <= 1.5x)"):format(over, over / call))
  local over16 = v16 - tempty - k1
  print(("lua: binding overhead, random(1, 6): %6.1f ns = %.2fx an empty C call"):format(
    over16, over16 / call))
  -- The floor: a C function that makes one raw 7-byte call and pushes a float.
  local rf = vrbench.rawfloat
  local tv, tf = duel(vloop, function(n) for _ = 1, n do rf() end end, 1000000)
  print(("lua: vrandom.random()     %7.1f ns   raw 7 B call + push %5.1f ns   " ..
    "%.1f ns above the floor"):format(tv, tf, tv - tf))
else
  print("lua: binding overhead: skipped (bench/vrbench not found or no vDSO)")
end

local g = vrandom.new()
local gv = duel(function(n) for _ = 1, n do g:random(1, 6) end end,
  loop(mr, 1, 6), 1000000)
print(("lua: g:random(1, 6)       %7.1f ns   (a generator's own state)"):format(gv))
g:close()

local b, u = duel(bloop, uloop, 200000)
print(("lua: vrandom.bytes(16)    %7.1f ns   /dev/urandom      %7.1f ns   " ..
  "%.1fx faster (target >= 4x; unbuffered f:read(16))"):format(b, u, u / b))

local b2, fb = duel(bloop, fbloop, 200000)
print(("lua: vrandom.bytes(16)    %7.1f ns   buffered read     %7.1f ns   " ..
  "%.1fx faster (stdio-buffered f:read(16), for reference)"):format(b2, fb, fb / b2))

urandom:close()
buffered:close()

-- A server's coroutines: n of them, each made, resumed to draw a die and
-- yield, then resumed to draw again and end; with a generator each (made
-- and closed in the coroutine), against the same with math.random.
local function mappings()
  local f, n = io.open("/proc/self/maps"), 0
  if not f then return -1 end
  for _ in f:lines() do n = n + 1 end
  f:close()
  return n
end
local peak
local function crowd(body)
  return function(n)
    local cos, create, resume = {}, coroutine.create, coroutine.resume
    for i = 1, n do
      local co = create(body)
      resume(co)
      cos[i] = co
    end
    peak = mappings()
    for i = 1, n do resume(cos[i]) end
  end
end
local vco = crowd(function()
  local g = vrandom.new()
  local x = g:random(1, 6)
  coroutine.yield()
  x = x + g:random(1, 6)
  g:close()
  return x
end)
local mco = crowd(function()
  local x = mr(1, 6)
  coroutine.yield()
  return x + mr(1, 6)
end)
local before = mappings()
vco(100000)
local added, held = peak - before, vrandom.info().handles_placeholder
local cv, cm = duel(vco, mco, 100000)
print(("lua: 100,000 coroutines, a generator each %7.0f ns   math.random %7.0f ns   " ..
  "ratio %.2fx a coroutine (%d mappings added, %d on the system call)"):format(
  cv, cm, cv / cm, added, held or 0))
