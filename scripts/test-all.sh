#!/bin/sh
# Every test suite but those of $named below, or the named ones and what
# they need:
#   scripts/test-all.sh [SUITE...]     scripts/test-all.sh --list
# Suites run on nproc lanes as soon as what they need has passed, each
# one's output shown as it ends, then one table; exit 1 when a suite
# failed.  VR_REQUIRE=all makes every skip a failure (doc/testing.md).
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

# name, what it needs, the command (a function below or a script).  A free
# lane takes the first suite of this list that is ready: the longest
# first (CPU seconds), unit before them all, as the matrix needs it.
suites="sources          -                     fetch_sources
kernels          -                     fetch_kernels
unit             -                     unit
firmware         sources               sh scripts/firmware-test.sh
matrix           unit                  matrix
mutants          unit                  sh scripts/mutants.sh
lua-static       sources               sh scripts/lua-static-test.sh
harden           unit                  sh scripts/harden-test.sh
cross            -                     sh scripts/cross-test.sh
vm               cross,kernels         sh scripts/vm-test.sh
vmfork           cross,kernels         sh scripts/vmfork-test.sh
musl-patched     sources               sh scripts/musl-patched.sh
musl-patched-vm  musl-patched,kernels  sh scripts/musl-patched-vm.sh
recipes          sources               sh test/recipes.sh
distcheck        unit                  distcheck
lua-musl         sources               sh scripts/lua-musl-test.sh
fuzz             unit                  sh scripts/fuzz.sh
musl-static      -                     musl_static
lua-versions     unit,sources          sh scripts/lua-versions-test.sh
rock             unit                  sh scripts/rock-test.sh
kernel-patch     -                     sh scripts/kernel-patch-test.sh"
io="sources kernels"   # downloads: they take no lane
# Run only when named: a cold run would add more than the command allows
# (two kernel builds; doc/testing.md).
named="kernel-patch"

unit() {
	local d=$VR_BUILD/unit
	unset CONFIG_SHELL  # what ./configure chooses for a user (lib.sh)
	# --with-lua: Lua 5.4 required (without it the Lua tests would not be
	# built), and every other Lua found, for lua-versions.
	configure "$d" --with-lua $again && build "$d" ||
		{ ok 1 "configure --with-lua (Lua 5.4 required) && make"; finish; }
	check "$d"
	find "$d/test" -name '*.log' -exec grep -h '^[0-9]*%: Checks: ' {} +
	finish
}

# gcc at every optimisation level, clang at two: build, unit tests.  gcc
# -O2 is the unit suite's build (configure's -g -O2), gcc -O0 distcheck's
# (both need unit).  One configure a compiler, the shared library only
# (the unit suite builds the static one too): the levels differ in what
# make compiles, not in what configure finds.  The Lua module for 5.4
# (integers) and LuaJIT (doubles, the FFI path) only, the two ends of
# compat.h; lua-versions builds and runs every version at the default
# level.  The tests' long loops at a tenth (the distribution checks keep
# their samples, test/stats.h): the unit suite runs them whole, a cell
# proves that its compiler and level build the same program; nor $docs (lib.sh), nor the scripts again under LuaJIT
# (test/lua/luajit.sh, the Lua of ffi.lua run twice: unit and distcheck
# run it, the module's C at two levels).
cells() { lua=5.4; pkg-config --exists luajit && lua=5.4,luajit; }
matrix() {
	local cc o d t lua
	export $tenth
	cells
	for cc in gcc clang; do
		command -v $cc >/dev/null || { missing "$cc is not installed"; continue; }
		d=$VR_BUILD/matrix/$cc
		configure "$d" CC=$cc --disable-static --with-lua=$lua || { ok 1 "$cc: configure"; continue; }
		t=$(tests_but "$d" $docs test/lua/luajit.sh)
		for o in -O0 -O1 -O2 -O3 -Os -Og; do
			case $cc$o in gcc-O[02] | clang-O[13sg]) continue ;; esac
			make -s -C "$d" clean >/dev/null 2>&1
			build "$d" CFLAGS="$o" || { ok 1 "$cc $o: builds"; continue; }
			check "$d" CFLAGS="$o" TESTS="$t"; ok $? "$cc $o: builds, make check passes"
		done
		rm -rf "$d"
	done
	finish
}

# The tarball: make distcheck, whose build is the matrix's gcc -O0 cell
# (its make check's loops at a tenth), every tracked file of the folders the tests
# use in it, and the harness runs from it.
distcheck() {
	local d=$VR_BUILD/unit t lua
	export $tenth
	cells
	build "$d" distcheck DISTCHECK_CONFIGURE_FLAGS="--disable-static --with-lua=$lua CFLAGS=-O0"
	ok $? "make distcheck (gcc -O0, the shared library, Lua $lua)"
	t=$(ls "$d"/vrandom-*.tar.gz | tail -n 1)
	if git -C "$top" rev-parse 2>/dev/null; then
		lost=$(cd "$top" && git ls-files scripts test examples contrib doc man |
			grep -vxF -f "$(tar -tzf "$t" | sed 's|^[^/]*/||' >"$d/dist.list"; echo "$d/dist.list")")
		[ -z "$lost" ]; ok $? "the tarball holds every tracked file of scripts test examples contrib doc man${lost:+; not:
$lost}"
	else
		missing "no git here: the tarball's list not compared"
	fi
	rm -rf "$d/from-tar"; mkdir -p "$d/from-tar"
	tar -xzf "$t" -C "$d/from-tar" && n=$(sh "$d"/from-tar/*/scripts/test-all.sh --list | wc -l) &&
		[ "$n" -ge 10 ]
	ok $? "the unpacked tarball's scripts/test-all.sh --list names ${n:-no} suites"
	finish
}

musl_static() {
	local d=$VR_BUILD/musl-static f
	need musl-gcc
	configure "$d" CC=musl-gcc --enable-static --disable-shared && build "$d" ||
		{ ok 1 "configure CC=musl-gcc --enable-static --disable-shared && make"; finish; }
	# Not test/no-check.sh, no-seccomp.sh, no-lua.sh: Debian's Check,
	# libseccomp and Lua 5.4 are glibc's; the unit suite runs them, and $docs.
	check "$d" TESTS="$(tests_but "$d" test/no-check.sh test/no-seccomp.sh test/no-lua.sh $docs)"
	build "$d" install DESTDIR="$d/_inst"; ok $? "make install"
	for f in libvrandom.a libvrandom-libc.a libvrandom-lua.a libvrandom-lua5.1.a; do
		[ -f "$d/_inst/usr/local/lib/$f" ]; ok $? "make install puts lib/$f"
	done
	finish
}

fetch_sources() {
	for p in musl lua5.1 lua5.2 lua5.3 lua5.4 lua5.5:unstable musl:trixie; do
		if t=$(fetch_source ${p%:*} $(case $p in *:*) echo ${p#*:} ;; esac) 2>"$st/err"); then
			ok 0 "$p: $t"
		else missing "no $p source: $(tail -n 1 "$st/err")"; fi
	done
	finish
}

fetch_kernels() {
	for m in $(arches system); do
		if k=$(fetch_kernel "$m" 2>"$st/err.$m"); then ok 0 "$m: $(cat "${k%/*}/package")"
		else missing "$m: no kernel: $(tail -n 1 "$st/err.$m")"; fi &
	done
	wait
	# The tallies of the background fetches are theirs: count the files.
	passed=0 failed=0 skipped=0
	for m in $(arches system); do
		arch "$m"
		if [ -f "$VR_CACHE/kernels/$m/$a_image" ]; then passed=$((passed + 1))
		elif [ "${VR_REQUIRE:-}" = all ]; then failed=$((failed + 1))
		else skipped=$((skipped + 1)); fi
	done
	finish
}

# ---- the schedule ----
names() { printf '%s\n' "$suites" | awk '{ print $1 }'; }
needs() { field "$1" 2 | tr ',' ' ' | sed 's/^-$//'; }
field() { printf '%s\n' "$suites" | awk -v s="$1" -v f="$2" '$1 == s { $1 = ""; if (f == 2) print $2; else { $2 = ""; sub(/^ +/, ""); print } }'; }
case ${1:-} in
--list) names; exit 0 ;;
-*) echo "usage: test-all.sh [--list] [SUITE...]" >&2; exit 2 ;;
esac
for s; do
	names | grep -qx -- "$s" || { echo "test-all: no suite $s (--list names them)" >&2; exit 2; }
done
# The named suites and, again and again, what they need.
want=$(echo ${*:-$(names | while read -r s; do case " $named " in *" $s "*) ;; *) echo "$s" ;; esac; done)})
while :; do
	more=$want
	for s in $want; do more="$more $(needs "$s")"; done
	more=$(names | while read -r s; do case " $more " in *" $s "*) echo "$s" ;; esac; done | xargs)
	[ "$more" = "$want" ] && break
	want=$more
done

# What the tests read from the environment comes from the suites alone:
# an inherited CK_RUN_CASE, VRANDOM_TEST_SCALE or VRANDOM_TEST_NO_VDSO
# would run fewer checks, or weaker ones, without a word; an inherited
# VR_VM_KERNEL or VR_VM_APPEND would boot another kernel, or this one
# otherwise.
cleared=$(env | sed -n 's/^\(\(CK\|VRANDOM\)_[A-Za-z0-9_]*\|VR_VM_KERNEL\|VR_VM_APPEND\)=.*/\1/p' | sort -u | xargs)
for v in $cleared; do unset "$v"; done

# One run a build tree: a second would remove the first one's results.
exec 9>"$VR_BUILD/test-all.lock" && flock -n 9 ||
	{ echo "test-all: another run uses $VR_BUILD" >&2; exit 2; }
vr_src || exit 1
st=$VR_BUILD/suites
rm -rf "$st"; mkdir -p "$st"
# Each suite's name, written here as it ends: the loop below sleeps in a
# read of it, rather than waking to look.
mkfifo "$st/ends" && exec 3<>"$st/ends" || exit 1
lanes=$jobs t0=$(date +%s)
echo "== test-all: $want"
[ -z "$cleared" ] || echo "   cleared from the environment: $cleared"
p0=$(date +%s%N); for i in $(seq 100); do /bin/true; done  # what a process costs: most of the time
echo "   on $lanes lanes; $(uname -srm); $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1); 100 runs of /bin/true: $((($(date +%s%N) - p0) / 1000000)) ms"

start() {  # suite
	date +%s >"$st/$1.t0"
	(
		cd "$top" && eval "$(field "$1" 3)"
	) 3>&- >"$st/$1.log" 2>&1 </dev/null && r=0 || r=$?
	date +%s >"$st/$1.t1"
	# The CPU seconds of all it ran (the lanes share the cores: a
	# suite's seconds depend on its neighbours, these do not).
	# (Not through a pipe: times in a subshell would count its own.)
	times >"$st/$1.times"
	awk -F'[ms ]+' 'NR == 2 { printf "%.0f\n", 60 * ($1 + $3) + $2 + $4 }' "$st/$1.times" >"$st/$1.cpu"
	echo $r >"$st/$1.rc.new"; mv "$st/$1.rc.new" "$st/$1.rc"
	echo "$1" >&3
}
result() {  # suite: PASS, FAIL or SKIP, and the reason for a skip
	r=$(cat "$st/$1.rc") why=$(sed -n 's/^SKIP: //p' "$st/$1.log" | head -n 1)
	case $r in
	0) res=PASS why=$(grep -c '^SKIP: ' "$st/$1.log" | sed 's/^0$//; s/.$/& skipped: /')${why} ;;
	77) res=SKIP; [ "${VR_REQUIRE:-}" != all ] || res=FAIL why="(VR_REQUIRE=all) $why" ;;
	*) res=FAIL why= ;;
	esac
}
unrun() { echo "$3" >"$st/$1.log"; echo 0 >"$st/$1.t0"; echo 0 >"$st/$1.t1"; echo "$2" >"$st/$1.rc"; }  # suite, rc, why
shown() {  # suite: its output, the ok lines left in its log
	result "$1"
	echo "== $1: $res after $(($(cat "$st/$1.t1") - $(cat "$st/$1.t0"))) s (log: ${st#"$top"/}/$1.log)"
	grep -v '^ok: ' "$st/$1.log"
}

pending=$want running= cpu=0
while [ -n "$pending$running" ]; do
	for s in $running; do
		[ -f "$st/$s.rc" ] || continue
		running=$(echo $running | tr ' ' '\n' | grep -vx "$s" | xargs)
		case " $io " in *" $s "*) ;; *) cpu=$((cpu - 1)) ;; esac
		shown "$s"
		echo "$s" >>"$st/ended"
		[ "$res" = PASS ] && echo "$s" >>"$st/passed"
	done
	for s in $pending; do
		ready=1
		for n in $(needs "$s"); do
			# Ended means reaped above: its rc may be newer than that.
			grep -qx "$n" "$st/ended" 2>/dev/null || { ready=; break; }
			grep -qx "$n" "$st/passed" 2>/dev/null && continue
			unrun "$s" 77 "SKIP: needs $n, which did not pass"
			pending=$(echo $pending | tr ' ' '\n' | grep -vx "$s" | xargs)
			shown "$s"; echo "$s" >>"$st/ended"; ready=; break
		done
		[ -n "$ready" ] || continue
		# The sources first: the longest suites need them, and would
		# otherwise find both lanes taken by shorter ones.
		case " $io " in *" $s "*) ;; *)
			[ $cpu -lt $lanes ] || continue
			case " $running " in *" sources "*) continue ;; esac
			cpu=$((cpu + 1)) ;;
		esac
		pending=$(echo $pending | tr ' ' '\n' | grep -vx "$s" | xargs)
		running="$running $s"
		echo "-- $s: started"
		start "$s" &
	done
	[ -n "$running" ] || [ -z "$pending" ] || {  # cannot happen: a guard
		for s in $pending; do unrun "$s" 1 "FAIL: never started (what it needs never ran)"; done
		pending=
	}
	[ -z "$running" ] || read -r s <&3
done

echo "== the suites"
total_p=0 total_f=0 status=0 cpu_s=0
{
	echo "suite|result|passed|failed|seconds|cpu s|reason"
	for s in $want; do
		result "$s"
		# The suite's own closing line, its last.
		set -- $(closing <"$st/$s.log")
		total_p=$((total_p + $1)) total_f=$((total_f + $2))
		[ "$res" != FAIL ] || status=1
		c=$(cat "$st/$s.cpu" 2>/dev/null || echo 0); cpu_s=$((cpu_s + c))
		echo "$s|$res|$1|$2|$(($(cat "$st/$s.t1") - $(cat "$st/$s.t0")))|$c|$why"
	done
	echo "all|$([ $status = 0 ] && echo PASS || echo FAIL)|$total_p|$total_f|$(($(date +%s) - t0))|$cpu_s|on $lanes lanes"
} | columns | tee "$st/table"
set -- $(awk '$1 == "all" { print $3, $4 }' "$st/table")
echo "$1 passed, $2 failed"
grep -q '^all  *PASS' "$st/table"
