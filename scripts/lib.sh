# Sourced by every test script: what the suites share.  Sets
#   top       the source tree;  src: a configure-able copy of it (vr_src)
#   VR_BUILD  where builds go (default build/ under top)
#   VR_CACHE  downloads and musl toolchains, kept between runs (default
#             ~/.cache/vrandom); VR_OFFLINE=1 fetches nothing
#   jobs      make's -j
#   CONFIG_SHELL  /bin/sh unless set (dash, an ash like BusyBox's: 28 %
#             less CPU than bash); the unit suite keeps configure's choice.
# VR_REQUIRE=all turns every skip into a failure.
top=${top:-$(cd "$(dirname "$0")/.." && pwd)}
VR_BUILD=${VR_BUILD:-$top/build}
VR_CACHE=${VR_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/vrandom}
CONFIG_SHELL=${CONFIG_SHELL:-/bin/sh}
export VR_BUILD VR_CACHE CONFIG_SHELL
mkdir -p "$VR_BUILD"
jobs=$(nproc 2>/dev/null || echo 2)
host_gnu=$(gcc -dumpmachine 2>/dev/null)
# Where a run repeats what the native builds check whole (sanitizers, qemu):
# the tests' loops at a tenth (test/scale.h, harness.lua); the samples of
# the distribution checks stay whole (test/stats.h).
tenth=VRANDOM_TEST_SCALE=0.1

# ---- results: a tally, its closing line, skips ----
passed=0 failed=0 skipped=0
ok() {  # status, what
	if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok: $2"
	else failed=$((failed + 1)); echo "FAIL: $2"; fi
}
# A part that cannot run here: SKIP with the reason, a failure under
# VR_REQUIRE=all.  skip: the same for the whole suite, which ends (77).
missing() {
	if [ "${VR_REQUIRE:-}" = all ]; then ok 1 "$* (VR_REQUIRE=all)"
	else skipped=$((skipped + 1)); echo "SKIP: $*"; fi
}
skip() { echo "SKIP: $*"; exit 77; }
need() {  # command... : skip the suite unless each is installed
	for _c; do command -v "$_c" >/dev/null 2>&1 || skip "$_c is not installed"; done
}
# The closing line, and the end: a suite that ran nothing has not passed.
finish() {
	echo "$passed passed, $failed failed, $skipped skipped"
	[ $((passed + failed)) -gt 0 ] || skip "nothing could run here (the SKIP lines above)"
	[ "$failed" = 0 ]; exit
}

# The checks an output reports: "P F" from its "N passed, N failed" lines
# and Check's "N%: Checks: N, Failures: N, Errors: N" lines.  In awk,
# tally(line) sets p and f to the line's, and is 0 for any other line.
tally_awk='function tally(x,  a) {
	sub(/\r$/, "", x)
	if (x !~ /^[0-9]+ passed, [0-9]+ failed/ && x !~ /^[0-9]+%: Checks: /) return 0
	gsub(/,/, "", x); split(x, a, " ")
	if (a[2] == "passed") { p = a[1]; f = a[3] } else { p = a[3] - a[5] - a[7]; f = a[5] + a[7] }
	return 1 }'
tally_of() { awk "$tally_awk"' tally($0) { P += p; F += f } END { print P + 0, F + 0 }'; }
# The same for the last such line alone: a program's or a suite's own.
closing() { awk "$tally_awk"' tally($0) { P = p; F = f } END { print P + 0, F + 0 }'; }
# A test program or script whose own checks fold into the tally; its exit
# status must agree (77: a skip, with its last line as the reason).
run() {  # what, command...
	local what=$1 out r; shift
	out=$("$@" 2>&1) && r=0 || r=$?
	set -- $(printf '%s\n' "$out" | closing)
	if [ "$r" = 77 ]; then missing "$what: $(printf '%s\n' "$out" | tail -n 1)"; return; fi
	[ "$r" = 0 ] && [ "$2" = 0 ] && [ "$1" -gt 0 ] ||
		printf '%s\n' "$out" | tail -n 25
	passed=$((passed + $1)) failed=$((failed + $2))
	[ "$r" = 0 ] || [ "$2" != 0 ] || ok 1 "$what exited $r"
	[ "$r" != 0 ] || [ "$1" -gt 0 ] || [ "$2" != 0 ] || ok 1 "$what reported no check"
	echo "$what: $1 passed, $2 failed"
}

# '|'-separated rows on standard input, aligned in columns.
columns() {
	awk -F'|' '{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
			if (NF > n) n = NF }
		END { for (r = 1; r <= NR; r++) for (i = 1; i <= n; i++)
			printf "%-*s%s", i < n ? w[i] : 0, c[r, i], i < n ? "  " : "\n" }'
}

# The getrandom system calls strace sees a program make (-1: it failed).
count() {  # out, program, arguments...
	local out=$1; shift
	strace -f -c -e trace=getrandom -o "$out.strace" "$@" >"$out.out" 2>&1 ||
		{ echo -1; return; }
	awk '$NF == "getrandom" { n = $4 } END { print n + 0 }' "$out.strace"
}
strace_ok() { command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; }

# ---- the architecture table (scripts/arch.tab) ----
# arch NAME: sets a_name a_gnu a_asm a_musl a_cflags a_user a_system
# a_syspkg a_console a_debarch a_suite a_kernel a_image a_backend a_symbol
# a_fw a_flags ("" for the table's "-"); returns 1 for an unknown name.
# A machine's name alone is its first row (riscv64: riscv64-7.2).
arch() {
	local line
	line=$(awk -v n="$1" '$1 == n { r = $0; exit }
		r == "" && index($1, n "-") == 1 && substr($1, length(n) + 2, 1) ~ /[0-9]/ { r = $0 }
		END { print r }' "$top/scripts/arch.tab") && [ -n "$line" ] || return 1
	set -f; set -- $line; set +f
	a_name=$1 a_gnu=$2 a_asm=$3 a_musl=$4 a_cflags=$5 a_user=$6 a_system=$7 a_syspkg=$8
	a_console=$9; shift 9
	a_debarch=$1 a_suite=$2 a_kernel=$3 a_image=$4 a_backend=$5 a_symbol=$6 a_fw=$7; shift 7
	a_flags=$*
	for _v in a_gnu a_musl a_cflags a_user a_system a_syspkg a_console a_debarch a_suite \
		a_kernel a_image a_backend a_symbol a_fw a_flags; do eval "[ \"\$$_v\" != - ] || $_v="; done
}
# arches [KIND]: the names, in the table's order; with KIND those that
# have a musl, a qemu-user, a qemu-system, whose kernel gives the vDSO
# getrandom, or that have no cross compiler (nocc), the firmware's (fw);
# newest: the vdso ones, one a triplet, unstable's kernel where it has one.
arches() {
	awk -v k="${1:-}" '
		/^#/ || !NF { next }
		k == "newest" { if ($14 == "vdso" && (!($2 in n) || $11 == "unstable")) n[$2] = $1
			row[++r] = $1; next }
		k == "" || (k == "musl" && $4 != "-") || (k == "user" && $6 != "-") ||
			(k == "system" && $7 != "-") || (k == "vdso" && $14 == "vdso") ||
			(k == "nocc" && $2 == "-") || (k == "fw" && $16 == "fw") { print $1 }
		END { for (i in n) o[n[i]] = 1; for (i = 1; i <= r; i++) if (row[i] in o) print row[i] }
	' "$top/scripts/arch.tab"
}

# ---- a configure-able source tree, and builds out of it ----
# The tree itself, unless it is configured (the quick start builds in it):
# configure refuses a configured source, and make would take its objects.
# Then `make distdir` exports a clean copy, once per run (VR_SRC).
vr_src() {
	if [ -n "${VR_SRC:-}" ]; then src=$VR_SRC
	elif [ ! -f "$top/config.status" ]; then
		[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null 2>&1) ||
			{ echo "autogen.sh failed" >&2; return 1; }
		src=$top
	else
		src=$VR_BUILD/src
		rm -rf "$src"; mkdir -p "$VR_BUILD"
		make -s -C "$top" distdir distdir="$src" >"$VR_BUILD/distdir.out" 2>&1 ||
			{ tail -n 20 "$VR_BUILD/distdir.out" >&2; return 1; }
	fi
	VR_SRC=$src; export VR_SRC
}

# configure DIR ARGS...: a fresh tree at DIR; configure's output on failure.
# Built once, it tracks no dependencies (a process a source file less);
# a tree built again as the sources change passes $again.
again=--enable-dependency-tracking
configure() {
	local d=$1; shift
	rm -rf "$d"; mkdir -p "$d"
	(cd "$d" && "$src/configure" -q --disable-dependency-tracking "$@" >configure.out 2>&1) ||
		{ tail -n 25 "$d/configure.out"; return 1; }
}
# unit_tree [TARGET...]: the unit suite's tree, $u (build/unit), built, and
# the targets; configured here when it is not, or from another source.
unit_tree() {
	u=$VR_BUILD/unit
	{ grep -qxF "abs_top_srcdir = $src" "$u/Makefile" 2>/dev/null || configure "$u" $again; } &&
		build "$u" && { [ $# = 0 ] || build "$u" "$@"; }
}
# build DIR [TARGET...]: make, its output's tail on failure.  One goal a
# make: "all" runs a make of its own, which would race another goal.
build() {
	local d=$1; shift
	make -s -C "$d" -j"$jobs" "$@" >>"$d/make.out" 2>&1 ||
		{ tail -n 30 "$d/make.out"; return 1; }
}
# The tree's TESTS but the named ones, for a variant that cannot run them.
# $docs: the two that read only the sources (the documents' links, the man
# pages), which the unit suite runs and another build cannot change.
docs="test/doc-links.sh test/man-render.sh"
tests_but() {  # dir, test...
	local d=$1; shift
	printf 'print:\n\t@echo $(TESTS)\n' | make -s -C "$d" -f Makefile -f - print | tr ' ' '\n' |
		grep / | grep -vxF "$(printf '%s\n' "$@")" | xargs
}
# check DIR [make arguments]: make check; each test's own checks (or the
# test as one where it prints no tally line; a tally of 0 checks is a
# failure) into the tally, skipped tests as skips, and the tail of the
# failed tests' logs.
check() {
	local d=$1 r p f l; shift
	make -s -C "$d" -j"$jobs" check "$@" >"$d/check.out" 2>&1 && r=0 || r=1
	# One awk for every test: its result, and its log's closing line.
	(cd "$d" && find . -name '*.trs' | sort | awk "$tally_awk"'
		{ t = $0; l = substr(t, 1, length(t) - 4); res = ""; P = F = seen = 0; last = prev = ""
		  while ((getline x < t) > 0) if (sub(/^:test-result: /, "", x)) res = x
		  while ((getline x < (l ".log")) > 0) { prev = last; last = x; if (tally(x)) { P = p; F = f; seen = 1 } }
		  close(t); close(l ".log")
		  if (res == "SKIP") print "SKIP", l, (prev == "" ? last : prev)
		  else if (res == "PASS" && !seen) print 1, 0, l
		  else if (res == "PASS") print P, F + (P + F == 0), l
		  else print P, F + (F == 0), l }') >"$d/tally"
	while read -r p f l; do
		[ "$p" != SKIP ] || { missing "make check: ${f#./}: $l"; continue; }
		passed=$((passed + p)) failed=$((failed + f))
		[ "$f" = 0 ] || { echo "FAIL: ${l#./}"; tail -n 30 "$d/$l.log"; }
	done <"$d/tally"
	[ "$r" = 0 ] || { grep -E '^(FAIL|ERROR|XPASS):|Error' "$d/check.out"; ok 1 "make check in ${d#"$VR_BUILD"/}"; }
	return $r
}
# ---- cross builds: the static test programs for one architecture ----
# cross_tree NAME: configure $VR_BUILD/cross/NAME for the architecture's
# triplet, unless configured so before, and check that configure chose its
# src/asm directory.  Sets b.
cross_tree() {
	arch "$1" && b=$VR_BUILD/cross/$a_gnu
	command -v "$a_gnu-gcc" >/dev/null || { missing "$1: $a_gnu-gcc is not installed"; return 1; }
	if ! grep -qs "^host_alias = $a_gnu\$" "$b/Makefile" ||
		! grep -qxF "abs_top_srcdir = $src" "$b/Makefile"; then
		configure "$b" --host="$a_gnu" --disable-shared --without-lua $again ||
			{ ok 1 "$1: configure --host=$a_gnu"; return 1; }
	fi
	grep -q "^VR_ARCH = $a_asm\$" "$b/Makefile" ||
		{ ok 1 "$1: configure --host=$a_gnu chose src/asm/$a_asm"; return 1; }
}
# cross_builds PROGRAM...: those of them this configuration builds (seccomp
# needs the target's libseccomp): automake comments out the lists of a
# condition not met.
cross_builds() {
	for _p; do
		awk -v p="$_p" '/^#/ || /:/ || /^\t[@-]/ { next }
			{ for (i = 1; i <= NF; i++) if ($i == p || $i == p "$(EXEEXT)") f = 1 }
			END { exit !f }' "$b/Makefile" && printf "%s " "$_p"
	done
}
# cross_make PROGRAM...: fully static (libtool's -all-static, and
# $ldflags), so that they run without a target sysroot; the Makefile
# first, without those flags.
cross_make() {
	build "$b" Makefile && build "$b" LDFLAGS="-all-static ${ldflags:-}" $(cross_builds "$@")
}

# ---- downloads: Debian's archive through a private apt setup ----
# apt_private DIR TYPE [SUITE [ARCH]]: DIR/apt.conf for `apt-get -c`, its
# sources derived from the machine's deb entries (one-line and deb822),
# lists and caches under DIR; the machine's apt setup and dpkg
# architectures stay as they are.  TYPE: deb or deb-src; SUITE replaces
# this release's suite; ARCH serves that architecture only.
apt_private() {
	local dir=$1 type=$2 suite=${3:-} arch=${4:-} base f
	base=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	rm -rf "$dir"; mkdir -p "$dir/sources" "$dir/lists/partial" "$dir/cache/archives/partial"
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v base="$base" -v suite="$suite" -v type="$type" -v arch="$arch" '
			$1 != "deb" { next }
			{
				$1 = type
				if (arch != "") {  # an arch= option gives way to ARCH
					for (j = 2; j <= NF && $2 ~ /^\[/; j++) {
						last = $j ~ /\]$/; sub(/arch=[^ \]]*/, "", $j)
						if (last) break
					}
					if ($2 ~ /^\[/) sub(/^\[/, "[arch=" arch " ", $2)
					else $1 = $1 " [arch=" arch "]"
				}
			}
			suite == "" { print; next }
			{ for (j = 2; j <= NF; j++) if ($j == base) { $j = suite; print; next } }
		' "$f"
	done >"$dir/sources/derived.list"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v base="$base" -v suite="$suite" -v type="$type" -v arch="$arch" '
			function flush() {
				if (st != "" && deb && (suite == "" || hit))
					printf "%s%s\n", st, arch == "" ? "" : "Architectures: " arch "\n"
				st = ""; deb = 0; hit = 0
			}
			/^[ \t]*$/ { flush(); next }
			/^#/ || (/^Architectures:/ && arch != "") { next }
			/^Types:/ { if ($0 ~ /[ \t]deb([ \t]|$)/) deb = 1; $0 = "Types: " type }
			/^Suites:/ && suite != "" {
				for (j = 2; j <= NF; j++) if ($j == base) hit = 1
				$0 = "Suites: " suite
			}
			{ st = st $0 "\n" }
			END { flush() }
		' "$f"
	done >"$dir/sources/derived.sources"
	[ -s "$dir/sources/derived.list" ] || [ -s "$dir/sources/derived.sources" ] ||
		{ echo "no deb entries in the machine's apt sources to derive from" >&2; return 1; }
	{
		echo "Dir::Etc::SourceList \"/dev/null\"; Dir::Etc::SourceParts \"$dir/sources\";"
		echo "Dir::State::Lists \"$dir/lists\"; Dir::Cache \"$dir/cache\";"
		echo "APT::Sandbox::User \"root\"; Acquire::Languages \"none\";"
		[ -z "$arch" ] || echo "Dir::State::status \"/dev/null\"; APT::Architecture \"$arch\";
#clear APT::Architectures;
APT::Architectures { \"$arch\"; };"
	} >"$dir/apt.conf"
	# apt-get update exits 0 when an index could not be fetched.
	apt-get -qq -c "$dir/apt.conf" update >"$dir/update.out" 2>&1 &&
		! grep -q '^[WE]: Failed to fetch' "$dir/update.out" ||
		{ sed -n 's/^[WE]: //p' "$dir/update.out" | head -n 1 >&2
		  echo "apt-get update${suite:+ for $suite}${arch:+/$arch} failed" >&2; return 1; }
}
offline() { [ -z "${VR_OFFLINE:-}" ] || { echo "$1 is not in $VR_CACHE (VR_OFFLINE)" >&2; return 1; }; }

# fetch_source PACKAGE [SUITE]: Debian's source package, unpacked once
# under $VR_CACHE/src; its tree's path.
fetch_source() {
	local d=$VR_CACHE/src/$1${2:+-$2} t o got v
	mkdir -p "$d"
	(
	flock 8
	t=$(cat "$d/tree" 2>/dev/null) && [ -d "$t" ] && exit 0
	offline "the source of $1" && command -v dpkg-source >/dev/null ||
		{ echo "dpkg-source is missing (dpkg-dev)" >&2; exit 1; }
	apt_private "$d/apt" deb-src "${2:-}" || exit 1
	find "$d" -mindepth 1 -maxdepth 1 ! -name apt ! -name lock -exec rm -rf {} +
	get() { (cd "$d" && apt-get -qq -c apt/apt.conf source "$1") >"$d/apt/source.out" 2>&1; }
	# A pool may lack the files of the index's newest version and hold an
	# older one's (linux in trixie, 2026-12: 6.12.117 not found, 6.12.107
	# there): the next two, newest first, unless a tarball came.
	got=; get "$1${2:+/$2}" && got=1
	[ -n "$got" ] || ls "$d/$1"_*.orig.tar.* >/dev/null 2>&1 ||
		for v in $(apt-cache -c "$d/apt/apt.conf" showsrc "$1" 2>/dev/null |
			sed -n 's/^Version: //p' | sort -urV | sed -n 2,3p); do
			get "$1=$v" && got=1 && echo "$1: the pool serves $v, not the newest" >&2 && break
		done
	if [ -z "$got" ]; then
		# A pool may serve the upstream tarball without the .dsc and the
		# Debian part (lua5.5 in unstable, 2026-12): apt fetched it first
		# and checked it against the index, so it is the tree, unpatched.
		o=$(ls "$d/$1"_*.orig.tar.* 2>/dev/null | tail -n 1)
		[ -n "$o" ] || { tail -n 3 "$d/apt/source.out" >&2; echo "apt-get source $1 failed" >&2; exit 1; }
		t=${o##*/}; t=$d/$1-${t#*_}; t=${t%.orig.tar.*}
		mkdir -p "$t" && tar -xf "$o" -C "$t" --strip-components=1 ||
			{ echo "$1: ${o##*/} does not unpack" >&2; exit 1; }
		echo "$1: no Debian source package, only ${o##*/}: unpacked as it is" >&2
	fi
	t=$(find "$d" -mindepth 1 -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -n 1)
	[ -n "$t" ] || { echo "$1 was fetched but no tree was unpacked" >&2; exit 1; }
	rm -rf "$d/apt"; echo "$t" >"$d/tree"
	) 8>"$d.lock" || return 1
	cat "$d/tree"
}

# build_lua CC TREE DIR [CFLAGS...]: a dynamic Lua from a source tree
# (scripts/lua-src.sh): DIR/liblua.a (the core and the libraries) and the
# interpreter DIR/lua, which exports them (-Wl,-E) to the C modules it
# loads.  POSIX and dlopen, as LUA_USE_LINUX has them without readline.
build_lua() {
	local cc=$1 t=$2 d=$3 c; shift 3
	mkdir -p "$d/o"
	for c in "$t"/src/*.c; do
		case ${c##*/} in luac.c|print.c) continue ;; esac
		$cc -O2 -std=gnu99 "$@" -DLUA_USE_POSIX -DLUA_USE_DLOPEN \
			-c -o "$d/o/$(basename "$c" .c).o" "$c" || return 1
	done
	ar rcs "$d/liblua.a" $(ls "$d"/o/*.o | grep -v '/lua\.o$') &&
		$cc -Wl,-E -o "$d/lua" "$d/o/lua.o" "$d/liblua.a" -lm -ldl
}

# fetch_kernel MACHINE: its Debian kernel's boot image, fetched once under
# $VR_CACHE/kernels (VR_VM_REFRESH=1 asks the archive for a newer one).
# The metapackage's first linux-image-* dependency is the image package;
# since 7.x (unstable) that package is empty and depends on linux-binary-*,
# which holds the image as /usr/lib/modules/VERSION/vmlinu*, not /boot's.
fetch_kernel() {
	local k=$VR_CACHE/kernels/$1 apt dep bin ver deb img
	arch "$1" && [ -n "$a_kernel" ] || { echo "$1 boots no kernel here" >&2; return 1; }
	if [ -z "${VR_VM_REFRESH:-}" ] && [ -f "$k/$a_image" ]; then echo "$k/$a_image"; return; fi
	offline "the kernel of $1" || return 1
	apt=$VR_CACHE/apt-$a_suite-$a_debarch
	mkdir -p "$VR_CACHE/kernels"
	(
	flock 8
	[ -n "${VR_VM_REFRESH:-}" ] || [ ! -f "$k/$a_image" ] || exit 0   # fetched meanwhile
	apt_private "$apt" deb "$a_suite" "$a_debarch" || exit 1
	show() { apt-cache -c "$apt/apt.conf" show --no-all-versions "$1" 2>/dev/null; }
	dep=$(show "$a_kernel" | sed -n 's/^Depends: //p' | tr ',|' '\n\n' |
		sed -n 's/^ *\(linux-image-[^ ]*\).*/\1/p' | head -n 1)
	ver=$(show "$dep" | sed -n 's/^Version: //p' | head -n 1)
	[ -n "$ver" ] || { echo "no linux-image package behind $a_kernel in $a_suite/$a_debarch" >&2; exit 1; }
	bin=$(show "$dep" | sed -n 's/^Depends: //p' | tr ',|' '\n\n' |
		sed -n 's/^ *\(linux-binary-[^ ]*\).*/\1/p' | head -n 1)
	rm -rf "$k.new"; mkdir -p "$k.new/x"
	(cd "$k.new" && apt-get -qq -c "$apt/apt.conf" download "${bin:-$dep}") >"$k.new/download.out" 2>&1 &&
		deb=$(ls "$k.new"/*.deb) && { dpkg-deb --fsys-tarfile "$deb" |
		(cd "$k.new/x" && tar -x --wildcards --no-wildcards-match-slash \
			'./boot/vmlinu*' './usr/lib/modules/*/vmlinu*' 2>/dev/null); true; } &&
		img=$(ls "$k.new"/x/boot/"$a_image"-* "$k.new"/x/usr/lib/modules/*/"$a_image" 2>/dev/null | head -n 1) &&
		[ -n "$img" ] ||
		{ tail -n 3 "$k.new/download.out" >&2; echo "${bin:-$dep}: no $a_image in it" >&2; exit 1; }
	mv "$img" "$k.new/$a_image"; echo "$dep $ver" >"$k.new/package"
	rm -rf "$k.new/x" "$k.new"/*.deb "$k" "$apt"; mv "$k.new" "$k"
	) 8>"$apt.lock" || return 1
	echo "$k/$a_image"
}

# ---- booting: a kernel, an initramfs of DIR, test/vm/init.c as PID 1 ----
# initramfs MACHINE DIR RUN: RUN/initramfs.cpio of DIR's files and init
# (built static once per triplet); RUN is made anew.
initramfs() {
	local init=$VR_BUILD/init/$a_gnu/init
	# Machines of one triplet boot at once, in subshells that share $$:
	# each builds its own copy and renames it into place.
	if [ ! -x "$init" ] || [ "$top/test/vm/init.c" -nt "$init" ]; then
		mkdir -p "${init%/*}"
		"$a_gnu-gcc" -static -O2 -Wall -o "$init.$1.$$" "$top/test/vm/init.c" &&
			mv "$init.$1.$$" "$init" ||
			{ echo "FAIL: $1: init does not build"; return 1; }
	fi
	rm -rf "$3"; mkdir -p "$3/root/dev" "$3/root/proc" "$3/root/sys" "$3/root/tmp"
	cp -R "$2/." "$3/root/"; cp "$init" "$3/root/init"
	(cd "$3/root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$3/initramfs.cpio"
}
# boot MACHINE DIR [TIMEOUT]: DIR/tests lists the programs init runs, one
# a line: `[VAR=value ...] path [args...]`.  The console goes to
# DIR/console.log; init's and each program's result lines are printed.
# 0: every program passed; 1: one failed, a panic, no power-off within
# TIMEOUT seconds (a hang guard, default 900), no summary; 77: no kernel or
# qemu-system here (with the reason).  VR_VM_KERNEL boots that image
# instead of the machine's Debian kernel; VR_VM_APPEND adds to the
# kernel's command line (pti=off, say).
boot() {
	local m=$1 dir=$2 limit=${3:-${VR_VM_TIMEOUT:-900}} kernel run t0 why sum
	arch "$m" && [ -n "$a_kernel" ] || { echo "FAIL: $m boots no kernel"; return 1; }
	for _c in "$a_system" cpio "$a_gnu-gcc"; do
		command -v "$_c" >/dev/null || { echo "SKIP: $m: $_c is not installed"; return 77; }
	done
	kernel=${VR_VM_KERNEL:-$(fetch_kernel "$m" 2>"$dir/kernel.err")} ||
		{ echo "SKIP: $m: no kernel: $(tail -n 1 "$dir/kernel.err")"; return 77; }
	run=$dir.boot; rm -f "$dir/console.log"
	initramfs "$m" "$dir" "$run" || return 1
	t0=$(date +%s)
	# A kernel that panics before init, or shows no init within
	# VR_VM_INIT_TIMEOUT seconds (default 300), boots once more, said so
	# (TCG: x86_64's "Oops: int3"; riscv64's 7.2 once stopped after the
	# firmware's banner, one boot in nine).
	for _try in 1 2; do
		timeout -k 10 "$limit" "$a_system" $a_flags -m 1G -nodefaults -display none -serial stdio \
			-no-reboot -kernel "$kernel" -initrd "$run/initramfs.cpio" \
			-append "console=$a_console rdinit=/init quiet panic=-1${VR_VM_APPEND:+ $VR_VM_APPEND}" \
			</dev/null >"$run/console.raw" 2>&1 &
		_q=$! _w=0 _late=
		until grep -q '^vm-init: ' "$run/console.raw" || ! kill -0 $_q 2>/dev/null; do
			[ $_w -lt "${VR_VM_INIT_TIMEOUT:-300}" ] || { _late=1; kill $_q; break; }
			sleep 2; _w=$((_w + 2))
		done
		wait $_q
		tr -d '\r' <"$run/console.raw" >"$dir/console.log"
		[ $_try = 1 ] && ! grep -q '^vm-init: ' "$dir/console.log" || break
		if [ -n "$_late" ]; then echo "$m: no init within ${VR_VM_INIT_TIMEOUT:-300} s; booting again"
		elif grep -q 'Kernel panic' "$dir/console.log"; then
			echo "$m: before init: $(grep -m 1 'Kernel panic' "$dir/console.log"); booting again"
		else break; fi
	done
	rm -rf "$run"
	sed -n -E "s/^vm-init: (PASS|SKIP|FAIL): /\1: $m: /p" "$dir/console.log"
	sum=$(sed -n 's/^vm-init: \([0-9]* passed, [0-9]* failed\)/\1/p' "$dir/console.log" | tail -n 1)
	if grep -q 'Kernel panic' "$dir/console.log"; then why=$(grep -m 1 'Kernel panic' "$dir/console.log")
	elif [ -z "$sum" ]; then why="no summary from init (qemu failed, or $limit s passed)"
	else case $sum in *" 0 failed"*) why= ;; *) why="programs failed" ;; esac
	fi
	[ "${VR_REQUIRE:-}" != all ] || ! grep -q '^vm-init: SKIP: ' "$dir/console.log" ||
		why="${why:+$why; }programs skipped (VR_REQUIRE=all)"
	echo "$m: ${sum:-no summary}, booted to power-off in $(($(date +%s) - t0)) s"
	[ -z "$why" ] && return 0
	tail -n 30 "$dir/console.log"; echo "FAIL: $m: $why (console: $dir/console.log)"; return 1
}
# The vm suite's programs (scripts/vm-test.sh), and vm_tests DIR: them,
# built in the tree $b for the machine arch() last set, in DIR with
# their list for init, DIR/tests; 1 when count or loop does not build.
vm_progs="test/smoke test/elf32 test/hostile/closed_fds test/hostile/threads
	test/hostile/rlimit test/hostile/seccomp test/hostile/drop src/cli/vrandom"
# Where the distribution checks run at full power, for a machine whose
# draws are system calls: left out here (test/stats.h).
stats_at() {
	[ "$a_backend" = vdso ] || echo VRANDOM_TEST_STATS_AT=cross,harden:valgrind
}
vm_tests() {
	local d=$1 p
	mkdir -p "$d/fakevdso"
	for p in $(cross_builds $vm_progs); do cp "$b/$p" "$d/"; done
	"$a_gnu-gcc" -static -O2 -Wall -I"$top/test" -o "$d/count" "$top/test/vm/count.c" &&
		"$a_gnu-gcc" -static -O2 -Wall -Dgetrandom=vrandom_getrandom -o "$d/loop" \
			"$top/test/musl-loop.c" "$b/.libs/libvrandom.a" -lpthread || return 1
	{
		echo "VRANDOM_SMOKE_EXPECT=$a_backend $tenth $(stats_at) smoke"
		! ls "$b"/test/fakevdso-32-*.so >/dev/null 2>&1 ||
			{ cp "$b"/test/fakevdso-32-*.so "$d/fakevdso/"; echo "$tenth elf32 /fakevdso"; }
		for p in closed_fds threads rlimit seccomp; do [ ! -f "$d/$p" ] || echo "$p"; done
		[ "$a_backend" != vdso ] || echo "$tenth drop"
		echo "vrandom info"
		if [ "$a_backend" = vdso ]; then echo "count 0 4 loop 100000"
		else echo "count 100 110 loop 100"; fi
	} >"$d/tests"
}
# A field of `vrandom info`'s output in a console log.
info_field() {  # console log, field
	sed -n '/^vm-init: run: vrandom info$/,/^vm-init: /p' "$1" | sed -n "s/^$2: *//p" | head -n 1
}

# ---- musl: Debian's source, contrib/musl's series, cached builds ----
# musl_series TREE: the series' patches this tree takes: one that touches
# arch/NAME/ is left out where the release has no arch/NAME.  0000 is the
# cover letter.
musl_series() {
	for _q in "$top"/contrib/musl/0*.patch; do
		case ${_q##*/} in 0000-*) continue ;; esac
		for _a in $(sed -n 's|^+++ b/arch/\([^/]*\)/.*|\1|p' "$_q" | sort -u); do
			[ -d "$1/arch/$_a" ] || continue 2
		done
		echo "$_q"
	done
}
musl_series_sum() { for _q in $(musl_series "$1"); do cat "$_q"; done | cksum | tr ' ' -; }
# musl ARCH [--patched] [--shared] [--suite SUITE]: musl of SUITE (default
# this release's), built once for ARCH (host: the machine's own) under
# $VR_CACHE/musl, keyed by version, series, compiler and recipe; its
# prefix, whose bin/musl-gcc builds for ARCH.  1: a build that fails or a
# series that does not apply; 77: no compiler or source.
musl() {
	local name=$1 patched= shared= suite= tree ver gcc prefix key sum=none
	shift
	while [ $# -gt 0 ]; do
		case $1 in --patched) patched=1 ;; --shared) shared=1 ;; --suite) suite=$2; shift ;; esac
		shift
	done
	if [ "$name" = host ]; then a_gnu=$host_gnu a_musl=${host_gnu%%-*}-linux-musl a_cflags=
	else arch "$name" && [ -n "$a_musl" ] || { echo "no musl for $name" >&2; return 1; }; fi
	gcc=$(command -v "$a_gnu-gcc") || { echo "$a_gnu-gcc is not installed" >&2; return 77; }
	tree=$(fetch_source musl "$suite") || return 77
	ver=${tree##*/musl-}
	# A machine's other kernels (x86_64-6.1, riscv64-7.2) share its musl.
	prefix=$VR_CACHE/musl/${name%-[0-9]*}-musl-$ver${patched:+-patched}${shared:+-shared}
	[ -z "$patched" ] || sum=$(musl_series_sum "$tree")
	key="$ver $sum $a_gnu $("$gcc" -dumpfullversion) $a_cflags $shared recipe 2"
	mkdir -p "${prefix%/*}"
	(
	flock 8
	[ "$(cat "$prefix.key" 2>/dev/null)" = "$key" ] && [ -x "$prefix/bin/musl-gcc" ] && exit 0
	rm -rf "$prefix" "$prefix.build" "$prefix.key" "$prefix.src"; mkdir -p "$prefix.build"
	# A patched source stays beside the prefix, for the cross checks.
	s=$tree; [ -z "$patched" ] || { s=$prefix.src; cp -a "$tree" "$s"; }
	for q in $( [ -z "$patched" ] || musl_series "$tree"); do
		(cd "$s" && patch -p1 --fuzz=0 -s <"$q") >>"$prefix.build/patch.out" 2>&1 ||
			{ echo "${q##*/} does not apply to musl $ver" >&2; exit 1; }
	done
	(cd "$prefix.build" && "$s/configure" --prefix="$prefix" --syslibdir="$prefix/lib" \
		--target="$a_gnu" CC="$gcc" CFLAGS="-O2 $a_cflags" --enable-wrapper=gcc \
		--$( [ -n "$shared" ] && echo en || echo dis)able-shared >configure.out 2>&1 &&
		make -j"$jobs" >make.out 2>&1 && make install >install.out 2>&1) ||
		{ tail -n 20 "$prefix.build/make.out" "$prefix.build/configure.out" >&2 2>/dev/null
		  echo "building musl $ver for $name failed" >&2; exit 1; }
	# musl's own spec file in front of the cross compiler, with the ABI
	# flags every program needs, and the cross binutils under musl names.
	printf '#!/bin/sh\nexec "${REALGCC:-%s}" %s "$@" -specs "%s/lib/musl-gcc.specs"\n' \
		"$gcc" "$a_cflags" "$prefix" >"$prefix/bin/musl-gcc"
	chmod +x "$prefix/bin/musl-gcc"
	ln -sf musl-gcc "$prefix/bin/$a_musl-gcc"
	for t in ar ranlib nm strip size objdump readelf; do
		ln -sf "$(command -v "$a_gnu-$t")" "$prefix/bin/$a_musl-$t"
	done
	echo 'int main(void) { return 0; }' >"$prefix.build/probe.c"
	"$prefix/bin/musl-gcc" -static -o "$prefix.build/probe" "$prefix.build/probe.c" ||
		{ echo "musl-gcc for $name cannot link a static program" >&2; exit 1; }
	rm -rf "$prefix.build"; echo "$key" >"$prefix.key"
	) 8>"$prefix.lock" || return
	echo "$prefix"
}

# ---- Linux: Debian's source, contrib/kernel's series, cached builds ----
kernel_series() { ls "$top"/contrib/kernel/0*.patch 2>/dev/null; }
# kernel_build [--patched]: an x86_64 bzImage of trixie's Linux source,
# `make tinyconfig` and contrib/kernel/x86_64.config, built once (with the
# series applied first: --patched) under $VR_CACHE/kernels, keyed by
# version, fragment, series, compiler and recipe; its path.  The patched
# source is a copy of hard links, the files the series touches its own; each
# kernel has its own output tree (O=), kept, so that a new key rebuilds
# only what changed.  1: a series that does not apply or a build that
# fails, or a configuration without an option of the fragment; 77: no
# source.
kernel_build() {
	local patched= tree ver k key q f sum=none
	[ "${1:-}" != --patched ] || patched=1
	tree=$(fetch_source linux trixie) || return 77
	ver=${tree##*/linux-}
	k=$VR_CACHE/kernels/linux-$ver-$( [ -n "$patched" ] && echo patched || echo plain)
	# The diffs alone: a message's figures rewritten build nothing again.
	[ -z "$patched" ] || sum=$(for q in $(kernel_series); do sed -n '/^diff /,$p' "$q"; done | cksum | tr ' ' -)
	key="$ver $sum $(cksum <"$top/contrib/kernel/x86_64.config" | tr ' ' -) $(gcc -dumpfullversion) recipe 1"
	mkdir -p "$VR_CACHE/kernels"
	(
	flock 8
	[ "$(cat "$k/key" 2>/dev/null)" = "$key" ] && [ -f "$k/bzImage" ] && exit 0
	# The output tree stays: a key changed rebuilds what changed.
	rm -rf "$k/src" "$k/bzImage" "$k/key" "$k/make.out" "$k/patch.out"; mkdir -p "$k/o"
	s=$tree
	if [ -n "$patched" ]; then
		# The files this series or the last build's touches are copies,
		# new to make: a link would keep the pristine file's time, older
		# than the object the last series made of it.
		s=$k/src; cp -al "$tree" "$s" || exit 1
		t=$(for q in $(kernel_series); do sed -n 's|^+++ b/||p' "$q"; done)
		for f in $(printf '%s\n' $t $(cat "$k/touched" 2>/dev/null) | sort -u); do
			cp --remove-destination "$tree/$f" "$s/$f" && touch "$s/$f" || exit 1
		done
		for q in $(kernel_series); do
			(cd "$s" && patch -p1 --fuzz=0 -s <"$q") >>"$k/patch.out" 2>&1 ||
				{ cat "$k/patch.out" >&2; echo "${q##*/} does not apply to Linux $ver" >&2; exit 1; }
		done
		echo $t >"$k/touched"
	fi
	m() { make -C "$s" O="$k/o" ARCH=x86_64 -j"$jobs" "$@" >>"$k/make.out" 2>&1; }
	{ m tinyconfig && cp "$top/contrib/kernel/x86_64.config" "$k/fragment" &&
		(cd "$k/o" && "$s/scripts/kconfig/merge_config.sh" -m .config "$k/fragment") >>"$k/make.out" 2>&1 &&
		m olddefconfig && m bzImage; } ||
		{ tail -n 20 "$k/make.out" >&2; echo "building Linux $ver failed" >&2; exit 1; }
	# What the fragment asks and the configuration did not keep (a
	# dependency missing) would be another experiment: refuse it.
	lost=$(grep '^CONFIG_.*=y$' "$k/fragment" | grep -vxF -f "$k/o/.config")
	[ -z "$lost" ] || { echo "the configuration lost: $lost" >&2; exit 1; }
	cp "$k/o/arch/x86/boot/bzImage" "$k/o/.config" "$k/"
	rm -rf "$k/src"; echo "$key" >"$k/key"
	) 8>"$k.lock" || return
	echo "$k/bzImage"
}

# glibc_trixie: glibc 2.41 of Debian trixie for amd64 (libc6, libc6-dev,
# linux-libc-dev), unpacked once under $VR_CACHE: its sysroot.  trixie
# merged /lib into /usr/lib, which the packages do not carry: the links
# are made here.
glibc_trixie() {
	local g=$VR_CACHE/glibc-trixie-amd64 d
	if [ ! -f "$g/sysroot/usr/lib/x86_64-linux-gnu/libc.a" ]; then
		offline "glibc of Debian trixie" || return 1
		mkdir -p "$g"
		(
		flock 8
		[ ! -f "$g/sysroot/usr/lib/x86_64-linux-gnu/libc.a" ] || exit 0
		rm -rf "$g/new" "$g/sysroot"; mkdir -p "$g/new/x"
		apt_private "$g/apt" deb trixie amd64 &&
			(cd "$g/new" && apt-get -qq -c ../apt/apt.conf download libc6-dev libc6 linux-libc-dev) \
				>"$g/download.out" 2>&1 || { tail -n 3 "$g/download.out" >&2; exit 1; }
		for d in "$g"/new/*.deb; do dpkg-deb -x "$d" "$g/new/x" || exit 1; done
		ln -s usr/lib "$g/new/x/lib" && ln -s usr/lib64 "$g/new/x/lib64" &&
			mv "$g/new/x" "$g/sysroot" && rm -rf "$g/new" "$g/apt"
		) 8>"$g.lock" || return 1
	fi
	echo "$g/sysroot"
}
# zerokey DIR: contrib/kernel/zerokey.c linked against glibc 2.41 and the
# tree $b's runtime (not PIC: -no-pie), dynamic, as DIR/zerokey, with the
# loader and libc.so.6 where it looks for them: glibc 2.41 static asks the
# vDSO for its states' size before it has found the vDSO, and never calls it.
# zerokey_cc OUTPUT FLAGS...: the same program with other flags (-static).
zerokey_cc() {
	local o=$1 s l; shift
	s=$(glibc_trixie) || return 1
	l=$s/usr/lib/x86_64-linux-gnu
	gcc --sysroot="$s" -nostdinc -isystem "$(gcc -print-file-name=include)" \
		-isystem "$s/usr/include/x86_64-linux-gnu" -isystem "$s/usr/include" -B"$l/" -L"$l" \
		"$@" -O2 -Wall -pthread -I"$src/include" -I"$src/src/runtime" -I"$src/src/asm/x86_64" \
		-o "$o" "$src/contrib/kernel/zerokey.c" "$b/.libs/libvrandom-core.a"
}
zerokey() {
	local s
	s=$(glibc_trixie) || return 1
	mkdir -p "$1/lib/x86_64-linux-gnu" "$1/lib64"
	zerokey_cc "$1/zerokey" -no-pie &&
		cp -L "$s/lib64/ld-linux-x86-64.so.2" "$1/lib64/" &&
		cp -L "$s/usr/lib/x86_64-linux-gnu/libc.so.6" "$1/lib/x86_64-linux-gnu/"
}
