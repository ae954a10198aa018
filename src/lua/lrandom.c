/* vrandom: the kernel's random numbers for Lua 5.1 to 5.5 and LuaJIT
 * (the differences are in compat.h).
 *
 * The module's functions draw through one state of the Lua universe's own,
 * made by luaopen_vrandom and held as their upvalue: a universe and its
 * coroutines never run on two threads at once, and an explicit state spares
 * every call the thread-local lookup (general-dynamic TLS in a dlopen'ed
 * module).  A generator from vrandom.new() owns a state of its own, so that
 * coroutines need not share one.  As in liolib.c, each g_ function does the
 * work for both, given the state and its first argument. */
#include "config.h"     /* first: it defines _GNU_SOURCE (dladdr) */

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vrandom.h"
#include "uniform.h"
#include "encode.h"
#include "compat.h"
#include "lvrandom.h"      /* the declaration hosts use: it must match */

#define GENERATOR "vrandom.generator"

/* Sizes are capped so that 2n, the length of hex(n), fits a Lua string
 * (and is exact where integers are doubles: VR_MAXINT is 2^53 there). */
#define MAXBYTES ((sizeof(size_t) < sizeof(vr_Int) ? \
	(size_t)-1 : (size_t)VR_MAXINT) / 2)

typedef struct Gen {
	vrandom_state *st;  /* NULL once closed */
} Gen;

/* The methods carry the metatable as upvalue 1: comparing with it spares
 * the lookup by name in the registry that luaL_checkudata makes on every
 * call, a fair share of the cost of g:random(). */
static vrandom_state *togen (lua_State *L)
{
	Gen *g = (Gen *)lua_touserdata(L, 1);

	if (!g || !lua_getmetatable(L, 1) ||
	    !lua_rawequal(L, -1, lua_upvalueindex(1)))
		luaL_typeerror(L, 1, GENERATOR);
	lua_pop(L, 1);
	if (!g->st)
		luaL_error(L, "generator is closed");
	return g->st;
}

#if defined(__GNUC__)
#define l_noinline __attribute__((__noinline__))
#else
#define l_noinline
#endif

/* The module built for dlopen carries the runtime inside it, so its first
 * read takes the runtime's inline hot path (rng.h): a call and a
 * frame less for every draw, a good part of what a die costs above the
 * kernel's own work under LuaJIT.  The archives for hosts call libvrandom. */
/* The public read in the runtime's terms: a byte count or -errno. */
static ssize_t readmore (vrandom_state *st, void *buf, size_t len,
                         unsigned int flags)
{
	ssize_t n = vrandom_state_getrandom(st, buf, len, flags);

	return n < 0 ? -errno : n;
}

#ifdef VRANDOM_DLOPEN
#include "rng.h"
#define firstread(st, buf, len) __vr_read(st, buf, len, 0)
#else
#define firstread(st, buf, len) readmore(st, buf, len, 0)
#endif

/* What is left after a short or failed first read: 0 once every byte is
 * in, else why not (an errno value).  Out of line, so that the callers
 * save no registers for it. */
static l_noinline int fillrest (vrandom_state *st, void *buf, size_t len,
                               ssize_t n)
{
	return -vr_fill_rest(readmore, st, buf, len, n);
}

/* Not vrandom_buf: it aborts when the kernel fails, and a script deserves
 * an error it can catch instead.  0, or why not (as fillrest). */
static int tryfill (vrandom_state *st, void *buf, size_t len)
{
	ssize_t n = firstread(st, buf, len);

	if (l_unlikely((size_t)n != len))
		return fillrest(st, buf, len, n);
	return 0;
}

static l_noinline void readerror (lua_State *L, int why)
{
	luaL_error(L, "cannot read random bytes: %s", strerror(why));
}

static void fill (lua_State *L, vrandom_state *st, void *buf, size_t len)
{
	int why = tryfill(st, buf, len);

	if (l_unlikely(why))
		readerror(L, why);
}

/* Draws for uniform.h: a Lua error when the kernel fails, or, with no L
 * (the FFI path, which must not raise), the reason kept in why and the
 * bytes set to all ones.  All ones is a draw every rejection test in
 * uniform.h accepts (its low part is 2^w - bound, never below the
 * threshold), so the loop ends and the caller reports the failure. */
struct drawctx {
	lua_State *L;
	vrandom_state *st;
	int why;
};

static l_noinline void drawfailed (struct drawctx *d, void *buf, size_t len,
                                  int why)
{
	if (d->L)
		readerror(d->L, why);
	d->why = why;
	memset(buf, 0xff, len);
}

/* Plain inline: uniform.h calls it through a pointer, and GCC below -O2
 * cannot resolve that pointer in time to force the inlining. */
static inline void drawfill (void *ctx, void *buf, size_t len)
{
	struct drawctx *d = ctx;
	int why = tryfill(d->st, buf, len);

	if (l_unlikely(why))
		drawfailed(d, buf, len, why);
}

/* A value in [0, lim], unbiased, from as few bytes as lim needs. */
static uint64_t project (struct drawctx *d, uint64_t lim)
{
	uint64_t v;

	if (lim == (uint64_t)-1) {
		drawfill(d, &v, sizeof v);
		return v;
	}
	return vr_uniform(lim + 1, drawfill, d);
}

/* An integer in [low, up], low <= up.  The unsigned difference covers
 * even [mininteger, maxinteger]. */
static vr_Int between (struct drawctx *d, vr_Int low, vr_Int up)
{
	return (vr_Int)(project(d, (uint64_t)up - (uint64_t)low) + (uint64_t)low);
}

static size_t checksize (lua_State *L, int arg)
{
	vr_Int n = vr_checkint(L, arg);

	luaL_argcheck(L, 0 <= n && (uint64_t)n <= MAXBYTES, arg,
		      "size out of range");
	return (size_t)n;
}

/* math.random's rules and messages, argument for argument, as the Lua
 * built for has them (compat.h: the integer range, random(0), which bound
 * an empty interval blames). */
static int g_random (lua_State *L, vrandom_state *st, int arg)
{
	struct drawctx d = { L, st, 0 };
	vr_Int low, up;
	int n = lua_gettop(L) - arg + 1;

	switch (n) {
	case 0:  /* a float of 53 random bits: every value equally likely */
		lua_pushnumber(L, (lua_Number)vr_double(drawfill, &d));
		return 1;
	case 1:
		low = 1;
		up = vr_checkint(L, arg);
		if (VR_RANDOM0 && up == 0) {  /* all 64 bits */
			vr_pushint(L, (vr_Int)project(&d, (uint64_t)-1));
			return 1;
		}
		break;
	case 2:
		low = vr_checkint(L, arg);
		up = vr_checkint(L, arg + 1);
		break;
	default:
		return luaL_error(L, "wrong number of arguments");
	}
	luaL_argcheck(L, low <= up, arg + (n == 2 && VR_EMPTY_AT_UP),
		      "interval is empty");
	vr_pushint(L, between(&d, low, up));
	return 1;
}

static int g_bytes (lua_State *L, vrandom_state *st, int arg)
{
	size_t n = checksize(L, arg);
	luaL_Buffer b;

	fill(L, st, luaL_buffinitsize(L, &b, n), n);
	luaL_pushresultsize(&b, n);
	return 1;
}

static int g_hex (lua_State *L, vrandom_state *st, int arg)
{
	size_t n = checksize(L, arg);
	luaL_Buffer b;
	char *p = luaL_buffinitsize(L, &b, 2 * n);

	fill(L, st, p + n, n);
	vr_hex(p, (unsigned char *)p + n, n);
	luaL_pushresultsize(&b, 2 * n);
	return 1;
}

static int g_token (lua_State *L, vrandom_state *st, int arg)
{
	size_t n = lua_isnoneornil(L, arg) ? 32 : checksize(L, arg);
	size_t len = vr_base64_len(n, 0);
	luaL_Buffer b;
	char *p = luaL_buffinitsize(L, &b, len);

	fill(L, st, p + len - n, n);
	vr_base64(p, (unsigned char *)p + len - n, n, VR_B64URL, 0);
	luaL_pushresultsize(&b, len);
	return 1;
}

static int g_uuid (lua_State *L, vrandom_state *st)
{
	unsigned char u[16];
	char s[36];

	fill(L, st, u, sizeof u);
	vr_uuid(s, u);
	lua_pushlstring(L, s, sizeof s);
	return 1;
}

/* Fisher-Yates through lua_geti/lua_seti, so __index, __newindex and
 * __len apply as they do in 5.3's table.sort (5.1 knows no __len for
 * tables). */
static int g_shuffle (lua_State *L, vrandom_state *st, int t)
{
	struct drawctx d = { L, st, 0 };
	vr_Int i, j;

	luaL_checktype(L, t, LUA_TTABLE);
	for (i = luaL_len(L, t); i > 1; i--) {
		j = between(&d, 1, i);
		lua_geti(L, t, i);
		lua_geti(L, t, j);
		lua_seti(L, t, i);
		lua_seti(L, t, j);
	}
	lua_settop(L, t);
	return 1;
}

/* The universe's state: the module functions' upvalue 1.  A finalizer
 * that runs after its __gc at lua_close finds NULL, which vrandom takes
 * for the calling thread's state. */
#define ownst(L) (((Gen *)lua_touserdata(L, lua_upvalueindex(1)))->st)

static int rand_random (lua_State *L) { return g_random(L, ownst(L), 1); }
static int rand_bytes (lua_State *L) { return g_bytes(L, ownst(L), 1); }
static int rand_hex (lua_State *L) { return g_hex(L, ownst(L), 1); }
static int rand_token (lua_State *L) { return g_token(L, ownst(L), 1); }
static int rand_uuid (lua_State *L) { return g_uuid(L, ownst(L)); }
static int rand_shuffle (lua_State *L) { return g_shuffle(L, ownst(L), 1); }

static int gen_random (lua_State *L) { return g_random(L, togen(L), 2); }
static int gen_bytes (lua_State *L) { return g_bytes(L, togen(L), 2); }
static int gen_hex (lua_State *L) { return g_hex(L, togen(L), 2); }
static int gen_token (lua_State *L) { return g_token(L, togen(L), 2); }
static int gen_uuid (lua_State *L) { return g_uuid(L, togen(L)); }
static int gen_shuffle (lua_State *L) { return g_shuffle(L, togen(L), 2); }

static void setint (lua_State *L, const char *k, vr_Int v)
{
	vr_pushint(L, v);
	lua_setfield(L, -2, k);
}

static void setstr (lua_State *L, const char *k, const char *v)
{
	lua_pushstring(L, v);  /* NULL leaves the field nil */
	lua_setfield(L, -2, k);
}

static int rand_info (lua_State *L)
{
	struct vrandom_info in;

	if (vrandom_get_info(&in))
		return luaL_error(L, "cannot get info: %s", strerror(errno));
	lua_createtable(L, 0, 13);
	setstr(L, "backend", in.backend_name);
	setstr(L, "vdso_symbol", in.vdso_symbol);
	setstr(L, "vdso_version", in.vdso_version);
	setint(L, "state_size", (lua_Integer)in.state_size);
	setint(L, "state_stride", (lua_Integer)in.state_stride);
	setint(L, "mmap_prot", (lua_Integer)in.mmap_prot);
	setint(L, "mmap_flags", (lua_Integer)in.mmap_flags);
	setint(L, "arena_pages", (lua_Integer)in.arena_pages);
	setint(L, "states_total", (lua_Integer)in.states_total);
	setint(L, "states_in_use", (lua_Integer)in.states_in_use);
	setint(L, "handles_placeholder", (lua_Integer)in.handles_placeholder);
	setint(L, "syscall_min", in.syscall_min == (size_t)-1 ? -1 :
	       (lua_Integer)in.syscall_min);  /* -1: pending */
	setstr(L, "binding", "classic");  /* ffi.lua says "ffi" */
	return 1;
}

/* vrandom_state_new never fails: without a state from the pool the
 * generator shares the placeholder that takes the system call. */
static void newgen (lua_State *L)
{
	Gen *g = (Gen *)lua_newuserdatauv(L, sizeof *g, 0);

	g->st = NULL;
	luaL_setmetatable(L, GENERATOR);
	g->st = vrandom_state_new();
}

static int rand_new (lua_State *L)
{
	newgen(L);
	return 1;
}

/* close, __close and __gc: the state goes back to the pool, once. */
static int gen_close (lua_State *L)
{
	Gen *g = (Gen *)luaL_checkudata(L, 1, GENERATOR);

	vrandom_state_free(g->st);
	g->st = NULL;
	return 0;
}

static int gen_tostring (lua_State *L)
{
	Gen *g = (Gen *)luaL_checkudata(L, 1, GENERATOR);

	if (g->st)
		lua_pushfstring(L, GENERATOR " (%p)", (void *)g);
	else
		lua_pushliteral(L, GENERATOR " (closed)");
	return 1;
}

static const luaL_Reg funcs[] = {
	{"random", rand_random},
	{"bytes", rand_bytes},
	{"hex", rand_hex},
	{"token", rand_token},
	{"uuid", rand_uuid},
	{"shuffle", rand_shuffle},
	{"new", rand_new},
	{"info", rand_info},
	{"_VERSION", NULL},  /* set below */
	{NULL, NULL}
};

/* Each method gets the metatable as its upvalue (see togen). */
static const luaL_Reg meth[] = {
	{"random", gen_random},
	{"bytes", gen_bytes},
	{"hex", gen_hex},
	{"token", gen_token},
	{"uuid", gen_uuid},
	{"shuffle", gen_shuffle},
	{"close", gen_close},
	{NULL, NULL}
};

static const luaL_Reg metameth[] = {
	{"__index", NULL},  /* the methods, set below */
	{"__gc", gen_close},
	{"__close", gen_close},
	{"__tostring", gen_tostring},
	{NULL, NULL}
};

static void creategenmeta (lua_State *L)
{
	luaL_newmetatable(L, GENERATOR);
	luaL_setfuncs(L, metameth, 0);
	luaL_newlibtable(L, meth);
	lua_pushvalue(L, -2);
	luaL_setfuncs(L, meth, 1);
	lua_setfield(L, -2, "__index");
	lua_pop(L, 1);
}

/* The runtime leaves a thread-exit destructor and fork handlers behind,
 * which must stay mapped after lua_close() unloads the module: a handle
 * of our own, never closed, keeps it loaded (vrandom.so, luarocks' too).
 * Linked into a program (libvrandom-lua.a) they stay anyway. */
#ifdef VRANDOM_DLOPEN
static void pin (void)
{
	Dl_info di;

	if (dladdr((void *)pin, &di) && di.dli_fname)
		dlopen(di.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}
#else
#define pin() ((void)0)
#endif

/* LuaJIT's FFI path, where the 5.1 API is built against: the module for
 * 5.1 serves LuaJIT too, and looks at run time.  The 5.1 archive leaves
 * it out (VRANDOM_NO_FFI): its hosts are PUC Lua 5.1, which has no FFI,
 * and LuaJIT's hosts link libvrandom-luajit.a. */
#if LUA_VERSION_NUM == 501 && !defined(VRANDOM_NO_FFI)
/* ---- LuaJIT's FFI path ----
 *
 * Built where the 5.1 API is built against, so the one module serves
 * lua5.1 and luajit alike; taken when require runs under LuaJIT with its
 * FFI and VRANDOM_LUAJIT_FFI is not 0.
 *
 * Why: LuaJIT's compiler does not compile calls to lua_CFunctions; each
 * call ends the trace and runs in the interpreter.  A call through a C
 * function pointer made by ffi.cast is compiled into the trace, as a
 * direct call when the pointer is a constant there (an upvalue never
 * assigned again).  ffi.C is no way in: it looks names up with
 * dlsym(RTLD_DEFAULT), which a static program has not, and require opens
 * C modules RTLD_LOCAL.  So the module hands the chunk below the entry
 * points' addresses, in a userdata laid out as struct ffientries, and
 * the chunk (ffi.lua) wraps the module's functions and the generator
 * methods.
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
	/* The kernel's vDSO getrandom and its state size, for the dice
	 * (ffi.lua): NULL where the runtime is not inside the module (the
	 * archives call libvrandom), where the vDSO does not serve, and
	 * where a plain C call cannot make it (powerpc); and the runtime's
	 * check of a byte 0x76 from it (src/runtime/vdso.h: a zero key). */
	ssize_t (*vdso)(void *, size_t, unsigned int, void *, size_t);
	size_t statesize;
	ssize_t (*zero_keyed)(void *, void *, size_t, unsigned int, ssize_t);
};

static const struct ffientries entries = {
	ffi_random, ffi_range, ffi_bytes, ffi_hex, ffi_token, ffi_uuid, FFIBUF,
	0, 0, 0
};

/* The chunk, src/lua/ffi.lua, embedded by the assembler from the path
 * the build gives (configure's build: its absolute path; luarocks builds
 * from the top of the tree), so the Lua stays in a file of its own that
 * luac and the tests read too. */
#ifndef VRANDOM_FFI_LUA
#define VRANDOM_FFI_LUA "src/lua/ffi.lua"
#endif
__asm__(".pushsection .rodata\n"
	"vr_ffichunk:\n"
	".incbin \"" VRANDOM_FFI_LUA "\"\n"
	"vr_ffichunk_end:\n"
	".popsection");
VR_HIDDEN extern const char vr_ffichunk[], vr_ffichunk_end[];

/* Runs ffi.lua with the module table (at t), the generators' metatable,
 * the universe's Gen (at u; a userdata: its state the functions' upvalue)
 * and the entries.  The chunk returns at once, leaving the classic path,
 * where there is no LuaJIT or no FFI.  Each C function the chunk makes a
 * wrapper for stays its fallback (the wrapper's upvalue): the classic
 * path for all it declines.  A Gen is declared there as here: one
 * pointer, NULL once closed;
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
static void ffiopen (lua_State *L, int t, int u)
{
	const char *e = getenv("VRANDOM_LUAJIT_FFI");
	struct ffientries *p;

	if (e && strcmp(e, "0") == 0)
		return;
	if (luaL_loadbuffer(L, vr_ffichunk, vr_ffichunk_end - vr_ffichunk,
			    "=vrandom ffi"))
		lua_error(L);
	lua_pushvalue(L, t);
	luaL_getmetatable(L, GENERATOR);
	lua_pushvalue(L, u);
	p = (struct ffientries *)lua_newuserdata(L, sizeof *p);
	*p = entries;
#if defined(VRANDOM_DLOPEN) && defined(VRANDOM_VDSO_PLAIN_CALL)
	/* Set by now, if the vDSO serves: making the universe's state ran
	 * setup.  States have memory only where it serves. */
	if (__vr_vdso_fn) {
		p->vdso = (vr_vgetrandom_fn)__vr_vdso_fn;
		p->statesize = __vr_params.size_of_opaque_state;
		p->zero_keyed = __vr_zero_keyed;
	}
#endif
	/* A sandbox short of a function the chunk needs (require, pcall,
	 * select...) leaves the classic path serving, as info() says. */
	if (lua_pcall(L, 4, 0, 0))
		lua_pop(L, 1);
}
#else
#define ffiopen(L, t, u) ((void)0)
#endif

LUAMOD_API int luaopen_vrandom (lua_State *L)
{
	pin();
	creategenmeta(L);
	newgen(L);  /* the universe's state, freed by __gc at lua_close */
	luaL_newlibtable(L, funcs);
	lua_pushvalue(L, -2);
	luaL_setfuncs(L, funcs, 1);
	lua_pushfstring(L, "vrandom %s", vrandom_version());
	lua_setfield(L, -2, "_VERSION");
	ffiopen(L, lua_gettop(L), lua_gettop(L) - 1);
	return 1;
}
