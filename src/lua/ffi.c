/* vrandom's FFI path for LuaJIT: part of lrandom.c (included by it where
 * the 5.1 API is built against, so the one module serves lua5.1 and
 * luajit alike), taken when require runs under LuaJIT with its FFI and
 * VRANDOM_LUAJIT_FFI is not 0.
 *
 * Why: LuaJIT's compiler does not compile calls to lua_CFunctions; each
 * call ends the trace and runs in the interpreter.  A call through a C
 * function pointer made by ffi.cast is compiled into the trace, as a
 * direct call when the pointer is a constant there (an upvalue never
 * assigned again).  ffi.C is no way in: it looks names up with
 * dlsym(RTLD_DEFAULT), which a static program has not, and require opens
 * C modules RTLD_LOCAL.  So the module hands the chunk below the entry
 * points' addresses, in a userdata laid out as struct ffientries, and
 * the chunk wraps the module's functions and the generator methods.
 *
 * The entry points are plain C that never raise (a longjmp across an FFI
 * call is not allowed), and each checks its arguments itself, whatever
 * the chunk checked: a bad argument through the FFI would crash the host.
 * Each answers with a value no success gives when it will not or cannot
 * serve: NaN or -1.  The chunk then tail-calls the classic function,
 * which does the work or raises its own error, with its own message; a
 * tail call leaves the caller's frame as it was, so the message names the
 * function and argument as it does on the classic path.  Only numbers
 * reach the entry points (a numeric string is the classic path's to
 * convert), and only the state of a generator that new() made, and not
 * closed. */

#include <math.h>
#include <stdlib.h>

/* The chunk's scratch buffer: the longest string an entry point writes.
 * Longer ones take the classic path, where the kernel's work dwarfs a
 * lua_CFunction call anyway. */
#define FFIBUF 512

/* The entry points for numbers take in all they call here (project,
 * drawfill, uniform.h): each call less between the trace and the kernel
 * is a fair share of what a die costs above the kernel's own work
 * (doc/lua.md, LuaJIT: the FFI path). */
#if defined(__GNUC__)
#define l_flatten __attribute__((__flatten__))
#else
#define l_flatten
#endif

/* random(): a float in [0, 1); -1 when the kernel failed. */
static l_flatten double ffi_random (vrandom_state *st)
{
	struct drawctx d = { NULL, st, 0 };
	double x = vr_double(drawfill, &d);

	return d.why ? -1 : x;
}

/* random(lo, up), and random(up) as (1, up): an integer in [lo, up],
 * each bound truncated toward zero as vr_checkint does.  NaN when a bound
 * is outside [-2^53, 2^53] or NaN, when lo > up (which the classic path
 * may still take, as in (1.7, 1.2), or refuse), or when the kernel
 * failed.  lo <= up implies the truncated bounds are in order. */
static l_flatten double ffi_range (vrandom_state *st, double lo, double up)
{
	struct drawctx d = { NULL, st, 0 };
	vr_Int r;

	if (!(lo >= -(double)VR_MAXINT && up <= (double)VR_MAXINT && lo <= up))
		return NAN;
	r = between(&d, (vr_Int)lo, (vr_Int)up);
	return d.why ? NAN : (double)r;
}

/* The string functions: a size in [0, max] (or NaN: no), truncated. */
static int ffisize (double x, size_t max, size_t *n)
{
	if (!(x >= 0 && x <= (double)max))
		return 0;
	*n = (size_t)x;
	return 1;
}

/* Each writes its string at buf (FFIBUF bytes) and returns its length;
 * -1 for a size out of range or a failed kernel, buf wiped then. */
static int32_t ffistr (char *buf, size_t len, int why)
{
	if (why) {
		vr_wipe(buf, FFIBUF);
		return -1;
	}
	return (int32_t)len;
}

static int32_t ffi_bytes (vrandom_state *st, char *buf, double x)
{
	size_t n;

	if (!ffisize(x, FFIBUF, &n))
		return -1;
	return ffistr(buf, n, tryfill(st, buf, n));
}

static int32_t ffi_hex (vrandom_state *st, char *buf, double x)
{
	size_t n;
	int why;

	if (!ffisize(x, FFIBUF / 2, &n))
		return -1;
	if (!(why = tryfill(st, buf + n, n)))
		vr_hex(buf, (unsigned char *)buf + n, n);
	return ffistr(buf, 2 * n, why);
}

static int32_t ffi_token (vrandom_state *st, char *buf, double x)
{
	size_t n, len;
	int why;

	if (!ffisize(x, FFIBUF / 4 * 3, &n))
		return -1;
	len = vr_base64_len(n, 0);
	if (!(why = tryfill(st, buf + len - n, n)))
		vr_base64(buf, (unsigned char *)buf + len - n, n, VR_B64URL, 0);
	return ffistr(buf, len, why);
}

static int32_t ffi_uuid (vrandom_state *st, char *buf)
{
	unsigned char u[16];
	int why = tryfill(st, u, sizeof u);

	if (!why)
		vr_uuid(buf, u);
	return ffistr(buf, 36, why);
}

/* What the chunk receives, and declares as its own struct: the same
 * members in the same order. */
struct ffientries {
	double (*random)(vrandom_state *);
	double (*range)(vrandom_state *, double, double);
	int32_t (*bytes)(vrandom_state *, char *, double);
	int32_t (*hex)(vrandom_state *, char *, double);
	int32_t (*token)(vrandom_state *, char *, double);
	int32_t (*uuid)(vrandom_state *, char *);
	int32_t bufsize;
};

static const struct ffientries entries = {
	ffi_random, ffi_range, ffi_bytes, ffi_hex, ffi_token, ffi_uuid, FFIBUF
};

/* Called with the module table, the generators' metatable, the universe's
 * Gen (a userdata: its state the functions' upvalue) and the entries.
 * Returns at once, leaving the classic path, where there is no LuaJIT or
 * no FFI.  Each C function the chunk makes a wrapper for stays its
 * fallback (the wrapper's upvalue): the classic path for all it declines.
 * A Gen is declared here as in lrandom.c: one pointer, NULL once closed;
 * the universe's is NULL after its __gc at lua_close, which is the
 * calling thread's state to vrandom, as on the classic path.
 *
 * Speed: the entry points and the functions built around them are
 * upvalues assigned once, constants in a trace; a wrapper built by a
 * helper (fn, method) has a prototype shared by several closures, so its
 * own upvalues are loaded and the core function it calls is guarded.
 * Generators: new() notes each one it makes in gens, a table with weak
 * keys, and a method takes the FFI path only for those.  A metatable is
 * no proof: getmetatable honours __metatable, which any userdata's
 * metatable can set to the module's, and a foreign userdata's bytes
 * would then be read as a state for the kernel to write through.
 * jit: looked up in package.loaded, never required: under PUC Lua a
 * require would run whatever jit.lua the path finds.
 * Strings: the bytes land in buf, ffi.string makes the Lua string (no
 * lua_CFunction, no userdata), and buf is wiped at once: no random bytes
 * are left behind in it, for a fork or a core dump. */
static const char ffichunk[] =
"local M, MT, U, E = ...\n"
"local loaded = type(package) == 'table' and package.loaded\n"
"local jit = type(loaded) == 'table' and rawget(loaded, 'jit')\n"
"if type(jit) ~= 'table' or type(jit.version) ~= 'string' or\n"
"    not jit.version:find('^LuaJIT') then return end\n"
"local okf, ffi = pcall(require, 'ffi')\n"
"if not okf or type(ffi) ~= 'table' then return end\n"
"if not (select and getmetatable and setmetatable and pairs) then\n"
"  return  -- a sandbox\n"
"end\n"
"local cast, tostr, fill, select, type, getmetatable =\n"
"  ffi.cast, ffi.string, ffi.fill, select, type, getmetatable\n"
"E = cast([[const struct {\n"
"  double (*random)(void *);\n"
"  double (*range)(void *, double, double);\n"
"  int32_t (*bytes)(void *, char *, double);\n"
"  int32_t (*hex)(void *, char *, double);\n"
"  int32_t (*token)(void *, char *, double);\n"
"  int32_t (*uuid)(void *, char *);\n"
"  int32_t bufsize;\n"
"} *]], E)\n"
"local f_random, f_range, f_bytes, f_hex, f_token, f_uuid =\n"
"  E.random, E.range, E.bytes, E.hex, E.token, E.uuid\n"
"local buf = ffi.new('char[?]', E.bufsize)\n"
"local Gen = ffi.typeof('struct { void *st; } *')\n"
"local UG = cast(Gen, U)\n"
"\n"
/* Core functions: the result, or nil for the classic path to decide. */
"local function random(st, ...)\n"
"  local n, lo, up = select('#', ...), ...\n"
"  local x\n"
"  if n == 0 then\n"
"    x = f_random(st)\n"
"    if x >= 0 then return x end\n"
"  elseif n == 1 then\n"
"    if type(lo) == 'number' then\n"
"      x = f_range(st, 1, lo)\n"
"      if x == x then return x end\n"
"    end\n"
"  elseif n == 2 and type(lo) == 'number' and type(up) == 'number' then\n"
"    x = f_range(st, lo, up)\n"
"    if x == x then return x end\n"
"  end\n"
"  return nil\n"
"end\n"
"local function take(len)\n"
"  if len < 0 then return nil end\n"
"  local s = tostr(buf, len)\n"
"  fill(buf, len)\n"
"  return s\n"
"end\n"
"local function bytes(st, n)\n"
"  if type(n) == 'number' then return take(f_bytes(st, buf, n)) end\n"
"  return nil\n"
"end\n"
"local function hex(st, n)\n"
"  if type(n) == 'number' then return take(f_hex(st, buf, n)) end\n"
"  return nil\n"
"end\n"
"local function token(st, n)\n"
"  if n == nil then n = 32 end\n"
"  if type(n) == 'number' then return take(f_token(st, buf, n)) end\n"
"  return nil\n"
"end\n"
"local function uuid(st)\n"
"  return take(f_uuid(st, buf))\n"
"end\n"
/* Plain tables only: with a metatable, the classic path's lua_gettable
 * and lua_objlen decide what __index, __newindex and # do. */
"local function shuffle(st, t)\n"
"  if type(t) ~= 'table' or getmetatable(t) ~= nil then return nil end\n"
"  for i = #t, 2, -1 do\n"
"    local j = f_range(st, 1, i)\n"
"    if j ~= j then return nil end\n"
"    t[i], t[j] = t[j], t[i]\n"
"  end\n"
"  return t\n"
"end\n"
"\n"
"local function fn(core, classic)\n"
"  return function(...)\n"
"    local r = core(UG.st, ...)\n"
"    if r ~= nil then return r end\n"
"    return classic(...)\n"
"  end\n"
"end\n"
"local gens = setmetatable({}, { __mode = 'k' })\n"
"local new = M.new\n"
"M.new = function(...)\n"
"  local g = new(...)\n"
"  gens[g] = true\n"
"  return g\n"
"end\n"
"local function method(core, classic)\n"
"  return function(g, ...)\n"
"    if gens[g] then\n"
"      local st = cast(Gen, g).st\n"
"      if st ~= nil then\n"
"        local r = core(st, ...)\n"
"        if r ~= nil then return r end\n"
"      end\n"
"    end\n"
"    return classic(g, ...)\n"
"  end\n"
"end\n"
"local I = MT.__index\n"
"for k, core in pairs { random = random, bytes = bytes, hex = hex,\n"
"    token = token, uuid = uuid, shuffle = shuffle } do\n"
"  M[k] = fn(core, M[k])\n"
"  I[k] = method(core, I[k])\n"
"end\n"
"local info = M.info\n"
"M.info = function()\n"
"  local t = info()\n"
"  t.binding = 'ffi'\n"
"  return t\n"
"end\n";

/* The module table at t, the universe's Gen at u. */
static void ffiopen (lua_State *L, int t, int u)
{
	const char *e = getenv("VRANDOM_LUAJIT_FFI");
	struct ffientries *p;

	if (e && strcmp(e, "0") == 0)
		return;
	if (luaL_loadbuffer(L, ffichunk, sizeof ffichunk - 1, "=vrandom ffi"))
		lua_error(L);
	lua_pushvalue(L, t);
	luaL_getmetatable(L, GENERATOR);
	lua_pushvalue(L, u);
	p = (struct ffientries *)lua_newuserdata(L, sizeof *p);
	*p = entries;
	/* A sandbox short of a function the chunk needs (require, pcall,
	 * select...) leaves the classic path serving, as info() says. */
	if (lua_pcall(L, 4, 0, 0))
		lua_pop(L, 1);
}
