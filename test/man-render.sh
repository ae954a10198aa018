#!/bin/sh
# The man pages render without a single warning from man-db and groff.
srcdir=${top_srcdir:-.}
pages="man/vrandom.1 man/vrandom.3 man/vrandom-lua.3"
command -v man >/dev/null 2>&1 || { echo "man not installed: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

render() {
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$1" >"$tmp/out" 2>"$tmp/err"
}

# The check must see a broken page as broken, or silence means nothing.
printf '.TH BAD 1\n.SH NAME\nbad \\- a page with an unknown macro\n.nosuchmacro\n' >"$tmp/bad.1"
render "$tmp/bad.1"
[ -s "$tmp/err" ] || { echo "FAIL: man --warnings is silent about an unknown macro"; exit 1; }

failed=0
for p in $pages; do
	if ! render "$srcdir/$p" || [ -s "$tmp/err" ]; then
		echo "FAIL: $p:"
		cat "$tmp/err"
		failed=1
	elif ! grep -q '^NAME' "$tmp/out" || [ "$(wc -l <"$tmp/out")" -lt 40 ]; then
		echo "FAIL: $p: rendered to $(wc -l <"$tmp/out") lines"
		failed=1
	else
		echo "ok: $p ($(wc -l <"$tmp/out") lines)"
	fi
done

# vrandom(3) describes every function the public header declares.
for f in $(sed -n 's/^[a-z].*[ *]\(vrandom_[a-z0-9_]*\)(.*/\1/p' "$srcdir/include/vrandom.h"); do
	n=$((n + 1))
	grep -q "^\.BR* *$f *(" "$srcdir/man/vrandom.3" ||
		{ echo "FAIL: vrandom.3 does not document $f"; failed=1; }
done
[ "${n:-0}" -ge 14 ] || { echo "FAIL: found only ${n:-0} functions in vrandom.h"; failed=1; }
exit $failed
