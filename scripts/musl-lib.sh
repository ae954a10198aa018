# Sourced by scripts/musl-patched.sh and scripts/musl-cross.sh: Debian's
# musl source, contrib/musl's series on a copy of it, and one build of
# either, cached.  The caller sets $top (the project's top directory).

# The musl source tree of SUITE (empty: this release's), unpacked by
# apt-source.sh into build/src or build/src-SUITE; its path on stdout.
# Exit 1 with apt-source.sh's reason on stderr when it cannot be had.
musl_source() {  # suite
	sh "$top/scripts/apt-source.sh" musl "$top/build/src${1:+-$1}" $1
}

# The series' patches this tree takes, one a line: a patch that touches
# arch/NAME/ is left out where the release has no arch/NAME (loongarch64
# before 1.2.5), as contrib/musl/README.md says.  0000 is the cover letter.
musl_series() {  # tree
	for _mq in "$top"/contrib/musl/*.patch; do
		[ -f "$_mq" ] || continue
		case ${_mq##*/} in 0000-*) continue ;; esac
		_ma=$(sed -n 's|^+++ b/arch/\([^/]*\)/.*|\1|p' "$_mq" | sort -u)
		_mx=
		for _md in $_ma; do [ -d "$1/arch/$_md" ] || _mx=1; done
		[ -n "$_mx" ] || echo "$_mq"
	done
}

# What the series is, for a cache key: the patches' names and contents.
musl_series_sum() {  # tree
	for _mq in $(musl_series "$1"); do echo "${_mq##*/}"; cat "$_mq"; done | cksum |
		awk '{ print $1 "-" $2 }'
}

# A patched copy of TREE at DEST, unless DEST is already that copy; the
# patch output goes to LOG.  Status 1 names the patch that did not apply.
musl_patch() {  # tree, dest, log
	_mk=$(musl_series_sum "$1")
	[ -d "$2" ] && [ "$(cat "$2.series" 2>/dev/null)" = "$_mk" ] && return 0
	rm -rf "$2" "$2.series"; cp -a "$1" "$2"
	for _mq in $(musl_series "$1"); do
		(cd "$2" && patch -p1 --fuzz=0 -s <"$_mq") >>"$3" 2>&1 ||
			{ echo "musl: ${_mq##*/} does not apply to ${1##*/}" >&2; return 1; }
	done
	echo "$_mk" >"$2.series"
}

# configure, make, make install into PREFIX, unless PREFIX holds a build
# with this KEY (PREFIX.stamp).  The rest goes to musl's configure.  On a
# failure the tail of the logs goes to stderr.  The dynamic linker of a
# shared build goes into PREFIX/lib too (--syslibdir), never into /lib.
musl_build() {  # source tree, prefix, key, configure arguments...
	_ms=$1 _mp=$2 _mk=$3; shift 3
	[ -f "$_mp/lib/libc.a" ] && [ "$(cat "$_mp.stamp" 2>/dev/null)" = "$_mk" ] && return 0
	rm -rf "$_mp" "$_mp.build" "$_mp.stamp"; mkdir -p "$_mp.build"
	(cd "$_mp.build" && "$_ms/configure" --prefix="$_mp" --syslibdir="$_mp/lib" --disable-shared "$@" \
		>configure.out 2>&1 && make -j2 >make.out 2>&1 && make install >install.out 2>&1) ||
		{ tail -n 20 "$_mp.build/make.out" "$_mp.build/configure.out" >&2 2>/dev/null
		  return 1; }
	echo "$_mk" >"$_mp.stamp"
}

# text + data of the smallest getrandom() program, static, -Os, stripped,
# as the size tool (default: size) counts them: file sizes move in pages.
musl_image() {  # musl-gcc, output, size tool
	"$1" -static -Os -ffunction-sections -fdata-sections -Wl,--gc-sections -s \
		-o "$2" "$top/test/musl-patched/size.c" &&
		"${3:-size}" "$2" | awk 'NR == 2 { print $1 + $2 }'
}
