-- vrandom's FFI path for LuaJIT: the Lua half, which lrandom.c embeds
-- at build time and runs from luaopen_vrandom (see ffiopen there).
local M, MT, U, E = ...
local loaded = type(package) == 'table' and package.loaded
local jit = type(loaded) == 'table' and rawget(loaded, 'jit')
if type(jit) ~= 'table' or type(jit.version) ~= 'string' or
    not jit.version:find('^LuaJIT') then return end
local okf, ffi = pcall(require, 'ffi')
if not okf or type(ffi) ~= 'table' then return end
if not (select and getmetatable and setmetatable and pairs) then
  return  -- a sandbox
end
local cast, tostr, fill, select, type, getmetatable =
  ffi.cast, ffi.string, ffi.fill, select, type, getmetatable
E = cast([[const struct {
  double (*random)(void *);
  double (*range)(void *, double, double);
  int32_t (*bytes)(void *, char *, double);
  int32_t (*hex)(void *, char *, double);
  int32_t (*token)(void *, char *, double);
  int32_t (*uuid)(void *, char *);
  int32_t bufsize;
  ssize_t (*vdso)(void *, size_t, unsigned int, void *, size_t);
  size_t statesize;
  ssize_t (*zero_keyed)(void *, void *, size_t, unsigned int, ssize_t);
} *]], E)
local f_random, f_range, f_bytes, f_hex, f_token, f_uuid =
  E.random, E.range, E.bytes, E.hex, E.token, E.uuid
local buf = ffi.new('char[?]', E.bufsize)
local Gen = ffi.typeof('struct { void *st; } *')
local UG = cast(Gen, U)
local floor = math.floor

-- Dice straight from the vDSO: its function (NULL where it does not serve
-- or the module has no runtime inside), a state's memory (the first member
-- of the runtime's struct vrandom_state, arena.h; NULL without the vDSO),
-- one byte, and uniform.h's vr_uniform_n on that byte step for step, so
-- that a byte gives the same face on either path.  The entry point below
-- costs a call and its checks more than the draw itself.  A failed call
-- (-ENOSYS under a late seccomp filter) leaves the rest to the entry
-- point, which knows what to do.  The byte is used up, never kept.  A
-- byte 0x76 or 0x2d (a zero key's blocks 0 and 2) goes to the runtime's
-- check (src/runtime/vdso.h), which keeps it unless the state was keyed
-- with zeros.
local vdso, statesize, zero_keyed = E.vdso, E.statesize, E.zero_keyed
local okb, bit = pcall(require, 'bit')
if not okb or type(bit) ~= 'table' then vdso = nil; bit = {} end
local band, rshift = bit.band, bit.rshift
local State = ffi.typeof('struct { void *mem; } *')
local one = ffi.new('uint8_t[1]')
local MAXINT = 2 ^ 53

local function byte(mem)
  if vdso(one, 1, 0, mem, statesize) ~= 1 then return nil end
  local b = one[0]
  if (b == 0x76 or b == 0x2d) and zero_keyed(mem, one, 1, 0, 1) ~= 1 then
    return nil
  end
  return one[0]  -- the system call's byte where the check refused b
end

local function die(st, lo, d)
  if st == nil then return nil end  -- the universe's, after lua_close
  local mem = cast(State, st).mem
  local b = mem ~= nil and byte(mem)
  if not b then return nil end
  local m = b * d
  if band(m, 255) < d then
    local t = (256 - d) % d
    while band(m, 255) < t do
      b = byte(mem)
      if not b then return nil end
      m = b * d
    end
  end
  return lo + rshift(m, 8)
end

-- Core functions: the result, or nil for the classic path to decide.
local function random(st, ...)
  local n, lo, up = select('#', ...), ...
  local x
  if n == 0 then
    x = f_random(st)
    if x >= 0 then return x end
  elseif n == 1 then
    if type(lo) == 'number' then
      if vdso ~= nil and lo >= 2 and lo <= 256 and lo == floor(lo) then
        x = die(st, 1, lo)
        if x then return x end
      end
      x = f_range(st, 1, lo)
      if x == x then return x end
    end
  elseif n == 2 and type(lo) == 'number' and type(up) == 'number' then
    if vdso ~= nil and lo >= -MAXINT and up <= MAXINT and lo == floor(lo) then
      local d = up - lo + 1
      if d >= 2 and d <= 256 and d == floor(d) then
        x = die(st, lo, d)
        if x then return x end
      end
    end
    x = f_range(st, lo, up)
    if x == x then return x end
  end
  return nil
end
local function take(len)
  if len < 0 then return nil end
  local s = tostr(buf, len)
  fill(buf, len)
  return s
end
local function bytes(st, n)
  if type(n) == 'number' then return take(f_bytes(st, buf, n)) end
  return nil
end
local function hex(st, n)
  if type(n) == 'number' then return take(f_hex(st, buf, n)) end
  return nil
end
local function token(st, n)
  if n == nil then n = 32 end
  if type(n) == 'number' then return take(f_token(st, buf, n)) end
  return nil
end
local function uuid(st)
  return take(f_uuid(st, buf))
end
-- Plain tables only: with a metatable, the classic path's lua_gettable
-- and lua_objlen decide what __index, __newindex and # do.
local function shuffle(st, t)
  if type(t) ~= 'table' or getmetatable(t) ~= nil then return nil end
  for i = #t, 2, -1 do
    local j = f_range(st, 1, i)
    if j ~= j then return nil end
    t[i], t[j] = t[j], t[i]
  end
  return t
end

local function fn(core, classic)
  return function(...)
    local r = core(UG.st, ...)
    if r ~= nil then return r end
    return classic(...)
  end
end
local gens = setmetatable({}, { __mode = 'k' })
local new = M.new
M.new = function(...)
  local g = new(...)
  gens[g] = true
  return g
end
local function method(core, classic)
  return function(g, ...)
    if gens[g] then
      local st = cast(Gen, g).st
      if st ~= nil then
        local r = core(st, ...)
        if r ~= nil then return r end
      end
    end
    return classic(g, ...)
  end
end
local I = MT.__index
for k, core in pairs { random = random, bytes = bytes, hex = hex,
    token = token, uuid = uuid, shuffle = shuffle } do
  M[k] = fn(core, M[k])
  I[k] = method(core, I[k])
end
local info = M.info
M.info = function()
  local t = info()
  t.binding = 'ffi'
  return t
end
