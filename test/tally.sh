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
