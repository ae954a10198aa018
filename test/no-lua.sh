#!/bin/sh
# configure found no Lua 5.4: report the Lua tests skipped, not passed.
echo "SKIP: no Lua 5.4 (configure --with-lua): the Lua module and its tests not built"
exit 77
