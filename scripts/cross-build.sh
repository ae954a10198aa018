# Sourced, not run: vrandom's Check-free test programs cross-built fully
# static for one architecture, in $out/cross-NAME (out: the caller's build
# directory).  Used by cross-test.sh (qemu-user) and vm-test.sh (booted
# kernels), so both build the same programs the same way.  Needs $top.

# cross_tree NAME TRIPLET LAYER [fresh]: configure $out/cross-NAME for
# TRIPLET (kept as it is when configured before, unless fresh) and check
# that configure chose src/asm/LAYER.  Sets b to the tree.  Returns 1 with
# the reason printed when TRIPLET-gcc is missing (prints SKIP) or configure
# failed (prints FAIL); cross_skip tells the two apart.
cross_tree() {
	b=$out/cross-$1 cross_skip=
	if ! command -v "$2-gcc" >/dev/null; then
		echo "SKIP: $1: $2-gcc not installed"
		cross_skip=1
		return 1
	fi
	[ "${4:-}" != fresh ] || rm -rf "$b"
	if [ ! -f "$b/Makefile" ] || ! grep -q "^host_alias = $2\$" "$b/Makefile"; then
		rm -rf "$b"; mkdir -p "$b"
		(cd "$b" && "$top/configure" -q --host="$2" --disable-shared --without-lua \
			>configure.out 2>&1) ||
			{ cat "$b/configure.out"; echo "FAIL: $1: configure"; return 1; }
	fi
	grep -q "^VR_ARCH = $3\$" "$b/Makefile" ||
		{ echo "FAIL: $1: configure chose $(sed -n 's/^VR_ARCH = //p' "$b/Makefile")"; return 1; }
}

# cross_builds PROGRAM...: those of the programs this configuration builds
# (seccomp needs the target's libseccomp, smoke a libc with threads): named
# in a variable's list that configure left in.  (automake writes rules for
# them all, and comments out the lists under a condition not met.)
cross_builds() {
	for _cb_p; do
		awk -v p="$_cb_p" '
			/^#/ || /:/ || /^\t[@-]/ { next }
			{ for (i = 1; i <= NF; i++) if ($i == p || $i == p "$(EXEEXT)") f = 1 }
			END { exit !f }' "$b/Makefile" && printf "%s " "$_cb_p"
	done
	echo
}

# cross_make PROGRAM...: builds them static in the tree (libtool's
# -all-static: no target sysroot needed to run them); prints make's output
# and returns 1 when that fails.  The Makefile first, without that flag:
# after a change to configure.ac, automake's rules rerun configure, which
# must not see an LDFLAGS the compiler does not know.
cross_make() {
	(cd "$b" && make -s Makefile >make.out 2>&1 &&
		make -s -j"${jobs:-2}" LDFLAGS=-all-static "$@" >>make.out 2>&1) ||
		{ cat "$b/make.out"; return 1; }
}
