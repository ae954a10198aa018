#!/bin/sh
# Install what building and testing vrandom needs on Debian 12 (as root).
# Packages already present are left as they are.
set -e
pkgs="build-essential autoconf automake libtool pkg-config git
      musl-tools check liblua5.4-dev lua5.4 luarocks strace file dpkg-dev
      lua5.1 liblua5.1-0-dev lua5.2 liblua5.2-dev lua5.3 liblua5.3-dev
      luajit libluajit-5.1-dev
      rng-tools5 man-db groff-base gnuplot-nox
      clang libclang-rt-14-dev valgrind libseccomp-dev
      qemu-user gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu
      gcc-powerpc64le-linux-gnu gcc-s390x-linux-gnu libc6-dev-arm64-cross
      libc6-dev-riscv64-cross libc6-dev-ppc64el-cross libc6-dev-s390x-cross
      gcc-arm-linux-gnueabihf gcc-i686-linux-gnu gcc-mipsel-linux-gnu
      gcc-powerpc-linux-gnu libc6-dev-armhf-cross libc6-dev-i386-cross
      libc6-dev-mipsel-cross libc6-dev-powerpc-cross
      qemu-system-arm qemu-system-misc qemu-system-ppc qemu-system-x86
      qemu-system-mips cpio"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
