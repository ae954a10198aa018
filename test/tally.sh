# Sourced by the Check-free shell tests: a tally that ends in the
# "N passed, N failed" line, and strace's count of getrandom calls.
passed=0 failed=0
ok() {  # status, what
	if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok: $2"
	else failed=$((failed + 1)); echo "FAIL: $2"; fi
}

# The getrandom row of strace -c for a run, or 0 when there was none;
# the trace and the program's output go to OUT.strace and OUT.out.
count() {  # out, program, arguments...
	out=$1; shift
	strace -f -c -e trace=getrandom -o "$out.strace" "$@" >"$out.out" ||
		{ cat "$out.out" >&2; return 1; }
	awk '$NF == "getrandom" { n = $4 } END { print n + 0 }' "$out.strace"
}

# A test script's own summary line must say 0 failed.
script() {  # what, command...
	what=$1; shift
	out=$("$@" 2>&1) && st=0 || st=$?
	sum=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	case $st:$sum in 0:*" 0 failed") ok 0 "$what: $sum" ;;
	*) printf '%s\n' "$out" | tail -n 20; ok 1 "$what: status $st, ${sum:-no summary}" ;;
	esac
}

# failure.lua's seccomp helper: test/lua/nogetrandom under DIR, built with
# the host's cc and libseccomp, for top_builddir=DIR.  Prints DIR, or
# nothing when it cannot be built (failure.lua then says so).
nogetrandom() {  # dir, top source dir
	mkdir -p "$1/test/lua"
	cc -o "$1/test/lua/nogetrandom" "$2/test/lua/nogetrandom.c" -lseccomp \
		2>/dev/null && echo "$1"
}
