#!/bin/sh
# The runtime's rooms call one way: an object uses a symbol another defines
# only down the chain (base.h lists it), never in a circle; and the sources
# hold one of each thing, checked below.  Read from the
# objects of libvrandom-core, so inline code in headers counts where it is
# compiled in.  NM is configure's (a cross build's own nm).
lib=${top_builddir:-.}/.libs/libvrandom-core.a
nm=${NM:-nm}
[ -f "$lib" ] || { echo "no $lib"; exit 99; }
edges=$($nm -A "$lib" | awk '
	{ split($1, f, ":"); obj = f[2] }
	$2 == "U" { use[obj, $3] = 1; next }
	NF == 3 && $2 ~ /^[BCDGRSTVW]$/ { def[$3] = obj; objs[obj] = 1 }
	END {
		for (k in use) {
			split(k, u, SUBSEP)
			if ((u[2] in def) && def[u[2]] != u[1])
				print u[1], def[u[2]]
		}
		for (o in objs) print o, o
	}' | sort -u)
n=$(printf '%s\n' "$edges" | awk '$1 == $2' | wc -l)
printf '%s\n' "$edges" | awk '$1 != $2 { print $1 " -> " $2 }'
if [ "$n" -lt 6 ]; then
	echo "FAIL: $n objects in $lib, the runtime has 6"
	exit 1
fi
if ! order=$(printf '%s\n' "$edges" | tsort 2>&1) ||
   printf '%s\n' "$order" | grep -q 'loop'; then
	printf '%s\n' "$order"
	echo "FAIL: the objects use each other in a circle"
	exit 1
fi
echo "no circle; top to bottom:" $order
# And each helper once: no C file includes another, and getrandom's flags
# have one definition (base.h) in the sources and tests.
src=${top_srcdir:-.}
inc=$(grep -rn '^#include "[^"]*\.c"' "$src/src" "$src/test" "$src/bench" 2>/dev/null)
[ -z "$inc" ] || { printf '%s\n' "$inc"; echo "FAIL: a .c file is included"; exit 1; }
n=$(grep -rn '^#define GRND_NONBLOCK' "$src/src" "$src/include" "$src/test" | wc -l)
[ "$n" -le 1 ] || { echo "FAIL: GRND_NONBLOCK is defined $n times"; exit 1; }
echo "no .c included; GRND_NONBLOCK defined once"
echo "3 passed, 0 failed"
