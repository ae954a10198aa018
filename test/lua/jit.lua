-- LuaJIT's FFI path (src/lua/ffi.lua and lrandom.c), run by make check
-- (test/lua/luajit.sh) and scripts/lua-versions-test.sh under luajit with
-- the FFI path on and off: which path serves, that the FFI path's calls
-- compile into traces (and the classic path's do not: the check can tell
-- them apart), that both give the same errors with the same messages,
-- bounds with a fraction, the sizes where the FFI path hands over to the
-- classic one, its buffer wiped, and a fork.  The other scripts check the
-- rest on both.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local T = require("harness")
local vrandom = require("vrandom")

if T.lua ~= "luajit" then
  T.skip("not LuaJIT")
  T.done()
end

local ffi_on = os.getenv("VRANDOM_LUAJIT_FFI") ~= "0"
local binding = vrandom.info().binding
T.eq(binding, ffi_on and "ffi" or "classic", "info().binding with VRANDOM_LUAJIT_FFI=" ..
  tostring(os.getenv("VRANDOM_LUAJIT_FFI")))

-- Traces: a loop of each call, recorded from scratch.  The FFI path's
-- make traces that neither abort nor stitch (a stitch is where LuaJIT
-- leaves a trace to call a lua_CFunction); the classic path's stitch.
-- An abort for the shape of a loop (leaving it, an inner one) is LuaJIT
-- trying again from another start; only NYI tells of a call it cannot
-- compile.
local jutil, vmdef = require("jit.util"), require("jit.vmdef")
local events = {}
jit.attach(function(what, tr, func, pc, otr, oex)
  events[#events + 1] = { what = what, tr = tr, func = func, pc = pc, err = otr, info = oex }
end, "trace")

local function traced(f)
  jit.flush()
  events = {}
  f()
  local seen = events
  events = {}   -- what the loop below makes is not f's
  local stopped, stitched, aborted = 0, 0, {}
  for _, e in ipairs(seen) do
    if e.what == "stop" then
      local lt = jutil.traceinfo(e.tr).linktype
      if lt == "stitch" or lt == "interpreter" then
        stitched = stitched + 1
        local fi = jutil.funcinfo(e.func, e.pc)
        aborted[#aborted + 1] = lt .. " at " .. tostring(fi.loc or
          fi.ffid and vmdef.ffnames[fi.ffid] or fi.addr)
      else
        stopped = stopped + 1
      end
    elseif e.what == "abort" then
      local why = vmdef.traceerr[e.err] or tostring(e.err)
      if type(e.info) == "number" or type(e.info) == "string" then
        why = why:format(e.info)
      end
      if why:find("^NYI") then aborted[#aborted + 1] = why end
    end
  end
  return stopped, stitched, aborted
end
jit.off(traced)   -- its own loop is interpreted; f runs as it would

local g = vrandom.new()
local t = { 1, 2, 3, 4, 5, 6, 7, 8 }
local loops = {
  { "random()", function() for _ = 1, 500 do vrandom.random() end end },
  { "random(6)", function() for _ = 1, 500 do vrandom.random(6) end end },
  { "random(1, 6)", function() for _ = 1, 500 do vrandom.random(1, 6) end end },
  { "random(-2^53, 2^53)", function() for _ = 1, 500 do vrandom.random(-2 ^ 53, 2 ^ 53) end end },
  { "bytes(16)", function() for _ = 1, 500 do vrandom.bytes(16) end end },
  { "hex(8)", function() for _ = 1, 500 do vrandom.hex(8) end end },
  { "token()", function() for _ = 1, 500 do vrandom.token() end end },
  { "uuid()", function() for _ = 1, 500 do vrandom.uuid() end end },
  { "shuffle(t)", function() for _ = 1, 500 do vrandom.shuffle(t) end end },
  { "g:random(1, 6)", function() for _ = 1, 500 do g:random(1, 6) end end },
  { "g:random()", function() for _ = 1, 500 do g:random() end end },
  { "g:bytes(16)", function() for _ = 1, 500 do g:bytes(16) end end },
  { "g:hex(8)", function() for _ = 1, 500 do g:hex(8) end end },
  { "g:token(16)", function() for _ = 1, 500 do g:token(16) end end },
  { "g:uuid()", function() for _ = 1, 500 do g:uuid() end end },
  { "g:shuffle(t)", function() for _ = 1, 500 do g:shuffle(t) end end },
}
if not jit.status() then
  T.skip("the JIT compiler is off here: the traces")
else
  for _, l in ipairs(loops) do
    local stopped, stitched, aborted = traced(l[2])
    if ffi_on then
      T.check(stopped > 0 and stitched == 0 and #aborted == 0,
        ("%s compiles: %d traces, %d stitched, aborts: %s"):format(l[1],
          stopped, stitched, table.concat(aborted, " ")))
    else
      T.check(stitched > 0, ("%s stitches on the classic path (%d stitched)"):format(
        l[1], stitched))
    end
  end
end
jit.attach(function() end)

-- Where the FFI path hands strings over to the classic one (its buffer
-- holds 512 characters): the lengths and alphabets on both sides.
for _, c in ipairs {
  { "bytes", 511, 511 }, { "bytes", 512, 512 }, { "bytes", 513, 513 },
  { "hex", 255, 510 }, { "hex", 256, 512 }, { "hex", 257, 514 },
  { "token", 383, 511 }, { "token", 384, 512 }, { "token", 385, 514 },
} do
  local f, n, len = c[1], c[2], c[3]
  local a, b = vrandom[f](n), g[f](g, n)
  T.eq(#a, len, ("%s(%d) length"):format(f, n))
  T.eq(#b, len, ("g:%s(%d) length"):format(f, n))
  T.check(a ~= b, ("%s(%d): two draws differ"):format(f, n))
  if f == "hex" then
    T.check(not a:find("[^0-9a-f]"), ("hex(%d): hex digits only"):format(n))
  elseif f == "token" then
    T.check(not a:find("[^%w_-]"), ("token(%d): base64url only"):format(n))
  end
end

-- Bounds with a fraction: LuaJIT's rules (5.1's) truncate them toward
-- zero, random(1, 6.9) a die of six, on either path; the FFI path's dice
-- take whole bounds only and leave the rest to lrandom.c.  2,000 draws
-- miss a face of six with probability 6 (5/6)^2000, below 10^-150.
for _, c in ipairs { { 6.9 }, { 1, 6.9 }, { 0.5, 5.5 }, { -6.9, -1 }, { 2.5, 3 } } do
  local function trunc(x) return x < 0 and math.ceil(x) or math.floor(x) end
  local lo, up = trunc(c[2] and c[1] or 1), trunc(c[2] or c[1])
  local name = ("random(%s)"):format(table.concat(c, ", "))
  for _, f in ipairs { function() return vrandom.random(unpack(c)) end,
                       function() return g:random(unpack(c)) end } do
    local seen, faces, bad = {}, 0, nil
    for _ = 1, 2000 do
      local x = f()
      if x ~= math.floor(x) or x < lo or x > up then bad = x; break end
      if not seen[x] then seen[x], faces = true, faces + 1 end
    end
    T.check(bad == nil and faces == up - lo + 1, ("%s: integers in [%d, %d], each seen (%s)"):format(
      name, lo, up, bad and "drew " .. bad or faces .. " faces"))
  end
end

-- The FFI path's strings pass through one buffer of the module's, wiped
-- once a string is taken from it: no token stays behind in memory.
if ffi_on then
  local ffi = require("ffi")
  local function buffer(f, depth)
    for i = 1, 60 do
      local name, x = debug.getupvalue(f, i)
      if not name then return nil end
      if name == "buf" and type(x) == "cdata" then return x end
      if type(x) == "function" and depth > 0 then
        x = buffer(x, depth - 1)
        if x then return x end
      end
    end
  end
  local b = buffer(vrandom.token, 3)
  if T.check(b ~= nil, "the FFI path's buffer found (an upvalue buf)") then
    for _, f in ipairs { "bytes", "hex", "token", "uuid" } do
      local s = f == "uuid" and vrandom.uuid() or vrandom[f](100)
      local left = 0
      for i = 0, ffi.sizeof(b) - 1 do
        if b[i] ~= 0 then left = left + 1 end
      end
      T.eq(left, 0, ("%s: bytes left in the buffer after a %d-character string"):format(f, #s))
    end
  end
end

-- The same calls on both paths, each in a luajit of its own: the same
-- results (types, lengths) and the same errors, message for message,
-- with the caller's position and the argument counted as the classic
-- path counts it.  Bad arguments of every kind; a closed generator.
local body = [[
local v = require("vrandom")
local g, c = v.new(), v.new()
c:close()
-- A userdata whose metatable claims to be the generators' (through
-- __metatable): still not a generator.
function spoof(u)
  getmetatable(u).__metatable = getmetatable(g)
  return u
end
local function show(ok, r)
  if not ok then return "error: " .. tostring(r) end
  return "ok: " .. type(r) .. (type(r) == "string" and " " .. #r or "")
end
local calls = {
  "v.random(2, 1)", "v.random(0)", "v.random(-1)",
  "v.random(\"x\")", "v.random(1, \"y\")", "v.random(nil)",
  "v.random(1, 2, 3)", "v.random(0 / 0)", "v.random(2 ^ 53 + 2)",
  "v.random(1, 2 ^ 53 + 2)", "v.random(-2 ^ 53 - 2, 1)",
  "v.random(1, math.huge)", "v.random(\"3\")", "v.random(\"1\", \"2\")",
  "v.random(1.7, 1.2)", "v.random(1.5)", "v.random(0.5)",
  "v.random(-0.5, 0.5)", "v.random({})", "v.random(true, 1)", "v.bytes()",
  "v.bytes(nil)", "v.bytes(-1)", "v.bytes(1.5)", "v.bytes(\"4\")",
  "v.bytes(0 / 0)", "v.bytes(2 ^ 60)", "v.bytes({})", "v.hex()",
  "v.hex(-0.5)", "v.hex(2 ^ 53)", "v.token(false)", "v.token(nil)",
  "v.token(-1)", "v.token(\"x\")", "v.uuid(1)", "v.shuffle()", "v.shuffle(5)",
  "v.shuffle(setmetatable({ 1, 2 }, {}))", "g:random(2, 1)",
  "g:random(\"x\")", "g:bytes(-1)", "g:hex()", "g:token({})", "g:shuffle(1)",
  "g.random(5)", "g.bytes({}, 1)", "g.random(io.stdout, 1)",
  "g.uuid(setmetatable({}, getmetatable(g)))",
  "g.random(spoof(io.stdout), 1, 6)", "g.bytes(spoof(newproxy(true)), 16)",
  "c:random()", "c:random(1, 6)",
  "c:bytes(4)", "c:hex(4)", "c:token()", "c:uuid()", "c:shuffle({ 1, 2 })",
}
-- Each call as a statement of its own, no tail call: its error names
-- the function and the position as a script's call would.
for i, e in ipairs(calls) do
  local f = assert(loadstring("local v, g, c = ... local r = " .. e .. " return r", "=call"))
  print(i, e, show(pcall(f, v, g, c)))
end
print("pcall direct", select(2, pcall(v.random, 2, 1)))
print("pcall direct", select(2, pcall(g.bytes, g, "z")))
]]
local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
local lua = arg[-1]
local outs = {}
for i, setting in ipairs { "0", "1" } do
  outs[i] = T.run(("VRANDOM_LUAJIT_FFI=%s %s -e %s"):format(setting, q(lua), q(body)))
end
local n = select(2, outs[1]:gsub("\n", "\n"))
T.check(n >= 55 and outs[1]:find("bad argument", 1, true) ~= nil,
  ("the calls ran (%d lines)"):format(n))
if T.eq(outs[2], outs[1], "the same results and messages on both paths") == false then
  print("# classic:\n" .. outs[1] .. "# ffi:\n" .. outs[2])
end

-- A sandbox short of a function the FFI path needs: the classic path
-- serves, and says so.
for _, missing in ipairs { "getmetatable", "pcall", "select" } do
  local out = T.run(("%s -e %s"):format(q(lua), q(missing .. " = nil " ..
    "local v = require('vrandom') print(v.info().binding, #v.bytes(4), v.random(1, 6) <= 6)")))
  T.eq(out, "classic\t4\ttrue\n", "without " .. missing .. ": the classic path")
end

-- A fork: the child's draws are its own, on the module's state and a
-- generator's (the vDSO state is wiped in the child; the FFI path keeps
-- nothing of its own between calls).
local ffi = require("ffi")
ffi.cdef [[
int fork(void);
int pipe(int fd[2]);
long read(int fd, void *buf, unsigned long n);
long write(int fd, const void *buf, unsigned long n);
int close(int fd);
int waitpid(int pid, int *status, int options);
void _exit(int status);
]]
local C = ffi.C
vrandom.random(); g:random()   -- both states in use before the fork
local fd = ffi.new("int[2]")
assert(C.pipe(fd) == 0)
local pid = C.fork()
if pid == 0 then
  local s = vrandom.hex(16) .. g:hex(16)
  C.write(fd[1], s, #s)
  C._exit(0)
end
C.close(fd[1])
local mine = vrandom.hex(16) .. g:hex(16)
local buf = ffi.new("char[64]")
local got = tonumber(C.read(fd[0], buf, 64))
C.close(fd[0])
local status = ffi.new("int[1]")
T.check(pid > 0 and C.waitpid(pid, status, 0) == pid and status[0] == 0, "the child ran")
local theirs = ffi.string(buf, math.max(got, 0))
T.eq(#theirs, 64, "the child's draws came back")
T.check(theirs:sub(1, 32) ~= mine:sub(1, 32), "parent and child: the module's draws differ")
T.check(theirs:sub(33) ~= mine:sub(33), "parent and child: the generator's draws differ")

g:close()

-- A vDSO that serves from a zero key (src/runtime/vdso.h), given to a
-- luajit of its own through test/fakeaux: the dice stay uniform on this
-- path, which calls the vDSO itself.  Without the check, the fake's
-- stream would put nearly every throw on one face: zerokey serves block 0
-- (first byte 0x76), zeroretry block 2 (0x2d), as the vDSO's second pass.
local dir = (os.getenv("top_builddir") or ".") .. "/test"
local pre = dir .. "/.libs/fakeaux.so"
for _, image in ipairs({"zerokey", "zeroretry"}) do
  if io.open(pre) and io.open(dir .. "/fakevdso-" .. image .. ".so") then
    local dice = "local v, n = require('vrandom'), {0, 0, 0, 0, 0, 0} " ..
      "for i = 1, 6000 do local x = v.random(6) n[x] = n[x] + 1 end " ..
      "print(v.info().backend, table.concat(n, ' '))"
    local out = T.run(("LD_PRELOAD=%s VRANDOM_FAKE_VDSO=%s %s -e %s"):format(
      q(pre), image, q(lua), q(dice)))
    local backend, counts = out:match("^(%a+)\t([%d ]+)\n$")
    T.eq(backend, "vdso", "the " .. image .. " fake serves: " .. out)
    for face in (counts or ""):gmatch("%d+") do
      T.check(tonumber(face) > 700 and tonumber(face) < 1300,
        ("6000 dice from the %s fake, about 1000 a face: %s"):format(image, counts))
    end
  else
    T.skip("test/fakeaux or the " .. image .. " fake vDSO not built: the dice on a zero key")
  end
end
T.done()
