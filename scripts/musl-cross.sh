#!/bin/sh
# musl for another architecture: Debian's musl source (the fetch of
# scripts/musl-patched.sh, through scripts/musl-lib.sh) built with Debian's
# cross compiler and installed under DIR.  The last line printed is the
# install prefix; its bin/musl-gcc drives the cross compiler with musl's
# headers, start files and libc.a, and bin/TRIPLET-{ar,ranlib,nm,strip,size}
# name the cross binutils (TRIPLET as configure --host takes it).
#
# Usage: musl-cross.sh ARCH DIR [--patched] [--shared] [--suite SUITE]
#   ARCH     aarch64 armhf i686 mipsel powerpc64le (or ppc64le) s390x
#            riscv64 x86_64
#   --patched  contrib/musl's series applied first (what the release lacks
#            left out, as contrib/musl/README.md says)
#   --shared   libc.so (musl's dynamic linker) too; static only without
#   --suite  the Debian suite whose musl to build (default: this release's;
#            trixie gives 1.2.5 where Debian 12 gives 1.2.3)
# Built once: the prefix (DIR/ARCH-musl-VERSION[-patched]) is reused only
# when its key matches: musl's version, the series' contents, the cross
# compiler's version and flags.  The reason on stderr, and the exit status:
# 2 for a usage error or an unknown ARCH; 77 when the cross compiler or the
# source cannot be had (a caller's SKIP); 1 when the series does not apply
# or the build fails (a caller's FAIL).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/musl-lib.sh"
die() { echo "musl-cross: $*" >&2; exit 1; }
usage() { echo "musl-cross: $*" >&2; exit 2; }
cannot() { echo "musl-cross: $*" >&2; exit 77; }

arch=${1:-} dir=${2:-}
[ -n "$arch" ] && [ -n "$dir" ] ||
	usage "usage: musl-cross.sh ARCH DIR [--patched] [--shared] [--suite SUITE]"
shift 2
patched= shared= suite=
while [ $# -gt 0 ]; do
	case $1 in
	--patched) patched=1 ;;
	--shared) shared=1 ;;
	--suite) [ $# -ge 2 ] || usage "--suite needs a suite name"; suite=$2; shift ;;
	--suite=*) suite=${1#--suite=} ;;
	*) usage "unknown option $1" ;;
	esac
	shift
done

# ARCH: Debian's cross triplet, the musl triplet for configure --host,
# flags musl and every program need.  musl refuses powerpc64's 128-bit
# long double, Debian's default there.
flags=
case $arch in
aarch64) gnu=aarch64-linux-gnu musl=aarch64-linux-musl ;;
armhf) gnu=arm-linux-gnueabihf musl=arm-linux-musleabihf ;;
i686) gnu=i686-linux-gnu musl=i686-linux-musl ;;
mipsel) gnu=mipsel-linux-gnu musl=mipsel-linux-musl ;;
powerpc64le|ppc64le) arch=powerpc64le gnu=powerpc64le-linux-gnu
	musl=powerpc64le-linux-musl flags=-mlong-double-64 ;;
s390x) gnu=s390x-linux-gnu musl=s390x-linux-musl ;;
riscv64) gnu=riscv64-linux-gnu musl=riscv64-linux-musl ;;
x86_64) gnu=x86_64-linux-gnu musl=x86_64-linux-musl ;;
*) usage "unknown ARCH $arch (aarch64 armhf i686 mipsel powerpc64le s390x riscv64 x86_64)" ;;
esac
gcc=$(command -v "$gnu-gcc") ||
	cannot "no cross compiler for $arch: $gnu-gcc is not installed (package gcc-$gnu)"
for t in ar ranlib nm strip size objdump; do
	command -v "$gnu-$t" >/dev/null || cannot "no $gnu-$t for $arch (binutils-$gnu)"
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
err=$(mktemp)
trap 'rm -f "$err"' EXIT
tree=$(musl_source "$suite" 2>"$err") ||
	cannot "the musl source${suite:+ of $suite} cannot be fetched: $(tail -n 1 "$err")"
ver=${tree##*/musl-}
prefix=$dir/$arch-musl-$ver${patched:+-patched}${shared:+-shared}

# One build of a prefix at a time (parallel callers wait for it); what a
# build writes beside its prefix is named after it.
exec 9>"$prefix.lock"
flock 9
src=$tree series=none
if [ -n "$patched" ]; then
	src=$prefix.src
	musl_patch "$tree" "$src" "$prefix.patch.log" || exit 1
	series=$(musl_series_sum "$tree")
fi
# The key: what the libc is built from and with.  recipe: raise it when
# the way it is built here changes.
recipe=1
key="musl $ver series $series gcc $gnu $("$gcc" -dumpfullversion) flags '$flags'
shared ${shared:-0} recipe $recipe"
if ! musl_build "$src" "$prefix" "$key" --target="$gnu" CC="$gcc" \
	CFLAGS="-O2 $flags" --enable-wrapper=gcc ${shared:+--enable-shared}; then
	die "building musl $ver for $arch failed (logs in ${prefix#"$top"/}.build)"
fi

# The wrapper: musl's spec file in front of the cross compiler, as musl's
# own musl-gcc does, with the ABI flags every program needs.
cat >"$prefix/bin/musl-gcc" <<EOF
#!/bin/sh
exec "\${REALGCC:-$gcc}" $flags "\$@" -specs "$prefix/lib/musl-gcc.specs"
EOF
chmod +x "$prefix/bin/musl-gcc"
ln -sf musl-gcc "$prefix/bin/$musl-gcc"
for t in ar ranlib nm strip size objdump; do
	ln -sf "$(command -v "$gnu-$t")" "$prefix/bin/$musl-$t"
done

# It must make a static program for ARCH.
echo 'int main(void) { return 0; }' >"$prefix.probe.c"
"$prefix/bin/musl-gcc" -static -o "$prefix.probe" "$prefix.probe.c" 2>"$err" ||
	die "musl-gcc for $arch cannot link a static program: $(tail -n 1 "$err")"
echo "$prefix"
