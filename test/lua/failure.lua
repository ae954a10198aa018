-- The other backends, and a kernel that fails: every test script passes
-- again with the system call and with /dev/urandom serving, and the
-- string tests with large requests sent to the system call (their loops
-- at a hundredth and a tenth), and a failing getrandom raises a Lua error
-- (never a nil, never an abort).  The distribution checks are left out of
-- these runs, each named (harness.lua): their samples, sized for power,
-- cost a system call or a file's open, read and close a draw there (10
-- and 60 s for random.lua and generator.lua whole), and the bytes meet
-- the same mapping as on the default backend, where the scripts run them
-- whole.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require("harness")

local here = arg[0]:match("^(.*)/[^/]*$") or "."
local lua = arg[-1]
local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local run = T.run
local whole = "this Lua's run of the same script on the default backend"

-- A run's summary, and the line naming the checks it left out, shown.
local function summary_of(out, what)
  local left = out:match("\n# (%d+ distribution checks left out [^\n]*)")
  if left then print(("# %s: %s"):format(what, left)) end
  return out:match("(%d+ passed, %d+ failed)%s*$")
end

for _, backend in ipairs { "syscall", "urandom" } do
  for _, script in ipairs { "random", "strings", "generator" } do
    local out, ok = run(("VRANDOM_TEST_SCALE=0.01 VRANDOM_TEST_STATS_AT=%s VRANDOM_BACKEND=%s %s %s"):format(
      q(whole), backend, q(lua),
      q(here .. "/" .. script .. ".lua")))
    local summary = summary_of(out, ("%s.lua with VRANDOM_BACKEND=%s"):format(script, backend))
    T.check(ok and summary and summary:find(" 0 failed$"),
      ("%s.lua with VRANDOM_BACKEND=%s: %s"):format(script, backend,
        summary or out:sub(-300)))
    local backend_line = out:match("# backend (%w+)")
    if backend_line then
      T.eq(backend_line, backend, script .. ".lua saw the forced backend")
    end
  end
end

-- The vDSO backend with every request of 256 bytes or more sent to the
-- system call: the string tests draw sizes on both sides of it.
for _, script in ipairs { "strings", "generator" } do
  local out, ok = run(("VRANDOM_TEST_SCALE=0.1 VRANDOM_TEST_STATS_AT=%s VRANDOM_SYSCALL_MIN=256 %s %s"):format(
    q(whole), q(lua),
    q(here .. "/" .. script .. ".lua")))
  local summary = summary_of(out, script .. ".lua with VRANDOM_SYSCALL_MIN=256")
  T.check(ok and summary and summary:find(" 0 failed$"),
    ("%s.lua with VRANDOM_SYSCALL_MIN=256: %s"):format(script,
      summary or out:sub(-300)))
end
local out = run(("VRANDOM_SYSCALL_MIN=256 %s -e %s"):format(q(lua),
  q("local v = require('vrandom'); local i = v.info(); " ..
    "print(i.backend == 'vdso' and i.syscall_min or 256)")))
T.eq(tonumber(out), 256, "info().syscall_min with VRANDOM_SYSCALL_MIN=256")

-- A finalizer that lua_close runs after the module's own state went back
-- to the pool (marked before it, so finalized after) still draws.  5.1
-- and LuaJIT run __gc for userdata only: newproxy makes one.
out = run(("%s -e %s"):format(q(lua), q("local function late() " ..
  "local v = package.loaded.vrandom; " ..
  "local r = v.random(1, 6); print(r >= 1 and r <= 6 and " ..
  "#v.bytes(300) == 300 and 'late ok' or 'late bad') end; " ..
  "local u = newproxy and newproxy(true) or setmetatable({}, { __gc = late }); " ..
  "if newproxy then getmetatable(u).__gc = late end; " ..
  "require('vrandom')")))
T.check(out:find("late ok", 1, true), "a late finalizer draws: " .. out:sub(-200))

-- Under a seccomp filter that makes getrandom fail with EIO: each call
-- must raise, with the reason; a fresh state makes even the vDSO ask the
-- system call for its seed.
local helper = (os.getenv("top_builddir") or ".") .. "/test/lua/nogetrandom"
local probe = io.open(helper, "rb")
if probe then
  probe:close()
  local body = [[
local v = require("vrandom")
local calls = {
  function() return v.bytes(16) end, function() return v.random() end,
  function() return v.random(1, 6) end, function() return v.hex(4) end,
  function() return v.token() end, function() return v.uuid() end,
  function() return v.shuffle({ 1, 2, 3 }) end,
  function() local g = v.new() local b = g:bytes(16) g:close() return b end,
}
for i, f in ipairs(calls) do
  local ok, err = pcall(f)
  print(i, ok and "returned " .. type(err) or "raised " .. tostring(err))
end
]]
  for _, backend in ipairs { "vdso", "syscall" } do
    local out = run(("VRANDOM_BACKEND=%s %s %s -e %s"):format(backend,
      q(helper), q(lua), q(body)))
    local n, raised = 0, 0
    for line in out:gmatch("[^\n]+") do
      if line:find("^%d+\t") then
        n = n + 1
        -- strerror(EIO): glibc says "Input/output error", musl "I/O error".
        local why = line:match("raised .*cannot read random bytes: (.*)$")
        if why == "Input/output error" or why == "I/O error" then
          raised = raised + 1
        else
          print("# " .. line)
        end
      end
    end
    T.check(n == 8, ("getrandom failing (%s): all 8 calls ran: %s"):format(
      backend, n == 8 and "yes" or out:sub(1, 300)))
    T.eq(raised, 8, ("getrandom failing (%s): calls raising the kernel's error"):format(backend))
  end
else
  T.skip("no " .. helper .. ": the kernel's failure")
end

T.done()
