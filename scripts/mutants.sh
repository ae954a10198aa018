#!/bin/sh
# Mutation testing: each fault of test/mutants.tab put into a copy of the
# sources, one at a time, built incrementally, and the tests its row names
# run on it (make check-TESTS); where they pass, the whole make check.  A
# mutant no test kills, or whose text is not found exactly once (the code
# moved: update the table), fails the suite.  doc/testing.md, Mutants.
#   scripts/mutants.sh [ROW...]     the table's rows by number (default all)
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

tab=$top/test/mutants.tab
m=$VR_BUILD/mutants
vr_src || exit 1
command -v perl >/dev/null || skip "perl is not installed"
# The copy: neither the user's checkout nor the unit suite's source.
rm -rf "$m"; mkdir -p "$m/src"
# Not git's files, nor build trees in it (the harness's, a developer's).
ex=$(cd "$src" && find . -mindepth 2 -maxdepth 3 -name config.status | sed 's|/config.status$||')
case $VR_BUILD in "$src"/*) ex="$ex ./${VR_BUILD#"$src"/}" ;; esac
(cd "$src" && tar -cf - --exclude=./.git $(for d in $ex; do echo "--exclude=$d"; done) .) |
	(cd "$m/src" && tar -xf -) ||
	{ ok 1 "copy the sources"; finish; }
src=$m/src
# Lua 5.4's module, and LuaJIT's, whose test (test/lua/luajit.sh) is the
# one that runs src/lua/ffi.lua.
lua=
pkg-config --exists lua5.4 && lua=5.4
pkg-config --exists luajit && lua=${lua:+$lua,}luajit
configure "$m/build" ${lua:+--with-lua=$lua} $again && build "$m/build" && build "$m/build" check TESTS= ||
	{ ok 1 "configure && make (the mutants' tree)"; finish; }
case ,$lua, in *,5.4,*) ;; *) missing "no Lua 5.4: the rows of src/lua are tried without the Lua tests" ;; esac
case ,$lua, in *,luajit,*) ;; *) missing "no LuaJIT: the rows of src/lua/ffi.lua are tried without its test" ;; esac
b=$m/build
progs=$(printf 'print:\n\t@echo $(check_PROGRAMS)\n' | make -s -C "$b" -f Makefile -f - print)
limit=${VR_MUTANT_TIMEOUT:-120}   # a test that hangs on a mutant has killed it

# count FILE: how often $F occurs in it; apply FILE: $F replaced by $R
# (the table's \n, \t and \\ read first).
unesc='sub u { my $s = shift; $s =~ s/\\(n|t|\\)/$1 eq "n" ? "\n" : $1 eq "t" ? "\t" : "\\"/ge; $s }'
count() { perl -0777 -ne "$unesc"'$f = u($ENV{F}); print scalar(() = /\Q$f\E/g), "\n"' "$1"; }
apply() { perl -0777 -i -pe "$unesc"'$f = u($ENV{F}); $r = u($ENV{R}); s/\Q$f\E/$r/' "$1"; }
# tests T...: build what they need (their programs, the Lua module, the
# tool; all for another script), 2 when that fails; make check-TESTS on
# them, 1 when one fails, those on stdout.
tests() {
	_p=
	for _t; do
		case " $progs " in *" $_t "*) _p="$_p $_t"; continue ;; esac
		case $_t in
		test/lua/luajit.sh) _p="$_p src/lua/luajit/vrandom.la" ;;
		test/lua/*) _p="$_p src/lua/vrandom.la" ;;
		test/cli-*|src/cli/*) _p="$_p src/cli/vrandom" ;;
		*) _p="$_p all" ;;
		esac
	done
	# all alone: it runs a make of its own, which would race another goal.
	case " $_p " in *" all "*) _p=all ;; esac
	make -s -C "$b" -j"$jobs" $(printf '%s\n' $_p | sort -u) >"$b/m.out" 2>&1 || return 2
	timeout -k 5 "$limit" make -s -C "$b" -j"$jobs" check-TESTS TESTS="$*" >"$b/m.out" 2>&1 && return 0
	sed -n 's/^\(FAIL\|ERROR\): //p' "$b/m.out" | xargs
	return 1
}

n=0 killed=0 late=0 equiv=0
us=$(printf '\037')
rows=$(awk -F'\t' '/^#/ || !NF { next } { n++; print n "\037" $1 "\037" $2 "\037" $3 "\037" $4 "\037" $5 }' "$tab")
# The rows' tests pass on the sources as they are: one that failed here
# would kill every mutant.
all=$(printf '%s\n' "$rows" | awk -F'\037' -v want=" $* " '$5 != "equivalent" &&
	(want == "  " || index(want, " " $1 " ")) { print $5 }' | tr ' ' '\n' | sort -u | xargs)
by=$(tests $all) && r=0 || r=$?
[ $r = 0 ] || { ok 1 "the rows' tests pass unchanged: ${by:-they do not build}"; finish; }
ok 0 "the rows' tests pass unchanged: $all"
t0=$(date +%s)
while IFS=$us read -r n f F R t why; do
	[ $# = 0 ] || case " $* " in *" $n "*) ;; *) continue ;; esac
	export F R
	c=$(count "$src/$f" 2>/dev/null)
	[ "$c" = 1 ] || { ok 1 "$n $f: '$F' found ${c:-no file,} ${c:+times} (the code moved: update the row)"; continue; }
	if [ "$t" = equivalent ]; then
		equiv=$((equiv + 1)); ok 0 "$n $f: equivalent: $why"; continue
	fi
	cp "$src/$f" "$m/orig"
	apply "$src/$f"
	s=$(date +%s)
	by=$(tests $t) && r=0 || r=$?
	if [ $r = 2 ]; then
		ok 1 "$n $f: the mutant does not build (fix the row): $(grep -m 1 error "$b/m.out")"
	elif [ $r = 1 ]; then
		killed=$((killed + 1))
		ok 0 "$n $f: killed by ${by:-$t (a timeout)} in $(($(date +%s) - s)) s: $why"
	# Their tests missed it: the whole make check.
	elif timeout -k 5 $((limit * 3)) make -s -C "$b" -j"$jobs" check >"$b/m.out" 2>&1; then
		ok 1 "$n $f: survived ($t and make check pass): $why"
	else
		late=$((late + 1))
		ok 0 "$n $f: killed by make check ($(sed -n 's/^\(FAIL\|ERROR\): //p' "$b/m.out" | xargs)), not by $t: $why"
	fi
	# A new mtime: make rebuilds the restored source too.
	cp "$m/orig" "$src/$f"; touch "$src/$f"
done <<EOF
$rows
EOF
echo "mutants: $killed killed by their rows' tests, $late by the whole make check, $equiv equivalent, $failed failed (survived or moved); $(($(date +%s) - t0)) s"
finish
