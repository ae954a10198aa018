#!/bin/sh
# configure built the Lua 5.4 module but found no liblua to link (LUA_LIBS:
# headers given by hand, no pkg-config file): the hosts that link it are
# not built.  A SKIP, not silence.
echo "SKIP: no liblua to link (LUA_LIBS): test/lua/unload and test/lua/two_runtimes not built"
exit 77
