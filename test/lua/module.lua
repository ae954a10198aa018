-- The module as shipped: what vrandom.so exports and links, and the
-- rockspec kept in step with the autotools build.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require("harness")
local vrandom = require("vrandom")

local srcdir = os.getenv("top_srcdir") or
  (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/../.."
local version = vrandom._VERSION:match("^vrandom (.*)$")
T.check(version ~= nil, "_VERSION carries a version")
version = version or "?"

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

-- The shared object: luaopen_vrandom its only symbol, no liblua, no
-- libvrandom (the runtime is inside).
local so = T.searchpath("vrandom", package.cpath)
T.check(so ~= nil, "vrandom.so found on package.cpath")
-- A tool's output, nil if it failed or said nothing (5.1's close does
-- not tell the exit status).
local function run(cmd)
  local p = io.popen("LC_ALL=C " .. cmd .. " 2>/dev/null")
  local out = p:read("*a")
  local ok = p:close()
  return ok and out ~= "" and out or nil
end
local syms = so and run("nm -D --defined-only '" .. so .. "'")
if syms then
  local names = {}
  for name in syms:gmatch("%s[TDBRVW]%s+(%S+)") do names[#names + 1] = name end
  T.eq(table.concat(names, " "), "luaopen_vrandom", "the only exported symbol")
else
  T.skip("nm not available: the exported symbols")
end
local dyn = so and run("objdump -p '" .. so .. "'")
if dyn then
  T.check(not dyn:find("NEEDED%s+liblua"), "not linked against liblua")
  T.check(not dyn:find("NEEDED%s+libvrandom"), "the runtime is linked in")
  T.check(dyn:find("NEEDED%s+libc%.so") ~= nil, "objdump saw the dynamic section")
  -- musl's dlopen refuses a library with initial-exec TLS (DF_STATIC_TLS).
  local flags = tonumber(dyn:match("\n%s*FLAGS%s+(0x%x+)") or "0")
  T.check(math.floor(flags / 0x10) % 2 == 0, "no initial-exec TLS (dlopen under musl)")
else
  T.skip("objdump not available: the dependencies")
end

-- The rockspec: named and versioned like the package, its sources exactly
-- the runtime's plus the module, its config.h of the same version.
local rockname = ("vrandom-%s-1.rockspec"):format(version)
local spec = {}
local chunk = T.loadfile(srcdir .. "/" .. rockname, spec)
T.check(chunk ~= nil, rockname .. " exists and parses")
if chunk then
  chunk()
  T.eq(spec.version, version .. "-1", "rockspec version")
  T.eq(spec.package, "vrandom", "rockspec package")
  T.eq(spec.dependencies and spec.dependencies[1], "lua >= 5.1, < 5.6",
    "rockspec: every Lua from 5.1 to 5.5")
  local mod = spec.build and spec.build.modules and spec.build.modules.vrandom
  T.check(type(mod) == "table", "rockspec builds the module vrandom")
  mod = mod or { sources = {}, incdirs = {} }
  local am = slurp(srcdir .. "/Makefile.am") or ""
  local core = am:match("libvrandom_core_la_SOURCES%s*=%s*(.-[^\\])\n") or ""
  local want = { "src/lua/lrandom.c" }
  for f in core:gsub("\\\n", " "):gmatch("%S+") do want[#want + 1] = f end
  table.sort(want)
  local got = {}
  for i, f in ipairs(mod.sources) do got[i] = f end
  table.sort(got)
  T.eq(table.concat(got, " "), table.concat(want, " "),
    "rockspec sources = libvrandom-core sources + lrandom.c")
  for _, f in ipairs(got) do
    T.check(slurp(srcdir .. "/" .. f) ~= nil, "rockspec source exists: " .. f)
  end
end
local cfg = slurp(srcdir .. "/src/lua/rock/config.h") or ""
T.eq(cfg:match('#define PACKAGE_VERSION "([^"]*)"'), version,
  "src/lua/rock/config.h version")


-- LuaJIT's FFI path keeps its Lua half in src/lua/ffi.lua, which the
-- module for the 5.1 API embeds when it is built: it must compile under
-- every Lua this test runs on (loadfile compiles, it does not run).
local chunk, err = loadfile(srcdir .. "/src/lua/ffi.lua")
T.check(chunk ~= nil, "src/lua/ffi.lua compiles" .. (chunk and "" or ": " .. tostring(err)))

T.done()
