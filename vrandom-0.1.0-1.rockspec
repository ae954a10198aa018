-- luarocks --lua-version 5.4 make           (in a source tree)
-- luarocks --lua-version 5.4 install vrandom-0.1.0-1.rockspec
--                                           (beside the make dist tarball)
-- Any of 5.1 (lua5.1 and LuaJIT), 5.2, 5.3, 5.4, 5.5 as --lua-version.
rockspec_format = "3.0"
package = "vrandom"
version = "0.1.0-1"
source = {
   url = "vrandom-0.1.0.tar.gz",
   dir = "vrandom-0.1.0",
}
description = {
   summary = "The Linux kernel's vDSO getrandom() for Lua 5.1 to 5.5 and LuaJIT",
   detailed = [[
Random numbers, bytes, hex strings, tokens, UUIDs and shuffles straight
from the kernel: through the vDSO getrandom() on Linux 6.11 and later,
else the getrandom system call.  math.random's argument rules, unbiased
ranges, and generators with their own state for coroutines.  One API on
every Lua; where integers are doubles (5.1, 5.2, LuaJIT) ranges stop at
2^53, exactly.]],
}
supported_platforms = { "linux" }
dependencies = { "lua >= 5.1, < 5.6" }
build = {
   type = "builtin",
   modules = {
      vrandom = {
         sources = {
            "src/lua/lrandom.c",
            "src/runtime/rng.c", "src/runtime/vdso.c", "src/runtime/arena.c",
            "src/runtime/threshold.c", "src/runtime/urandom.c", "src/runtime/draw.c",
         },
         -- src/lua/rock stands in for configure: config.h and the arch layer.
         incdirs = { "src/lua/rock", "include", "src/runtime" },
         defines = { "VRANDOM_DLOPEN" },
         libraries = { "pthread", "dl" },
      },
   },
}
