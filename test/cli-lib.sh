# Sourced by the test/cli-*.sh scripts: the tool's path, a scratch
# directory, and `run`, which records a command's status and output.
V=${top_builddir:-.}/src/cli/vrandom
[ -x "$V" ] || { echo "no $V: build first" >&2; exit 99; }
# A runaway writer must not fill the disk (100 MiB in 512-byte blocks),
# nor an endless command hang the suite.
ulimit -f 204800 2>/dev/null || :
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 120"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
failures=0 skipped=

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
# A part that cannot run here: its reason, and the script's status 77
# (Automake's SKIP) once the rest has passed.
skip_part() {
	echo "cannot run here: $*"
	skipped=${skipped:+$skipped; }$*
}

nl='
'

# run CMD...: sets $status, $out (stdout), $err (stderr) and $lines (the
# lines on stderr, as wc -l counts them).  stderr is short: the shell's
# read takes it without the two processes that cat and wc would cost.
run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	out=$(cat "$tmp/out")
	err= lines=0 l=
	while IFS= read -r l; do
		err=$err$l$nl
		lines=$((lines + 1))
	done <"$tmp/err"
	err=$err$l
	while [ "${err%"$nl"}" != "$err" ]; do err=${err%"$nl"}; done
}

# expect STATUS CMD...: the status must match; 2 and 1 want exactly one
# line on stderr, 0 wants none.
expect() {
	want=$1
	shift
	run "$@"
	[ "$status" = "$want" ] || fail "$*: status $status, want $want ($err)"
	case $want in
	0) [ "$lines" = 0 ] || fail "$*: unexpected stderr: $err" ;;
	*) [ "$lines" = 1 ] || fail "$*: want one line on stderr, got $lines: $err" ;;
	esac
}

finish() {
	[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
	[ -z "$skipped" ] || { echo "SKIP: $skipped"; exit 77; }
	exit 0
}
