#!/bin/sh
# The documentation's links: every relative link and #anchor in README.md
# and doc/*.md must point at a file or directory that exists and, for an
# anchor, at a heading of the target Markdown file (GitHub's slugs: lower
# case, punctuation dropped, spaces to hyphens, -1, -2... for repeats).
# And the README's quick start is still the two commands: the first code
# block under "## Quick start" holds exactly two lines, each starting with
# scripts/deps.sh, the second the one CI runs (.ci/run, where present).
# Usage: doc-links.sh [top]  (default: $top_srcdir, else the script's ..)
top=${1:-${top_srcdir:-$(dirname "$0")/..}}
cd "$top" || exit 1
LC_ALL=C; export LC_ALL
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The heading slugs of Markdown file $1, one a line, outside code fences.
slugs() {
	awk '
	/^```/ { fence = !fence; next }
	fence || !/^#+ / { next }
	{
		s = $0; sub(/^#+ +/, "", s); sub(/ +#* *$/, "", s)
		s = tolower(s); gsub(/[^a-z0-9 _\200-\377-]/, "", s); gsub(/ /, "-", s)
		n = seen[s]++; print (n ? s "-" n : s)
	}' "$1"
}

# The relative link targets of Markdown file $1 as "line target", outside
# code fences and code spans.
links() {
	awk '
	/^```/ { fence = !fence; next }
	fence { next }
	{
		line = $0
		while (match(line, /`[^`]*`/))       # code spans, not links in them
			line = substr(line, 1, RSTART - 1) "x" substr(line, RSTART + RLENGTH)
		while (match(line, /\]\([^) ]+\)/)) {
			t = substr(line, RSTART + 2, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
			if (t !~ /^[a-z]+:/) print NR, t
		}
	}' "$1"
}

for md in README.md doc/*.md; do
	[ -f "$md" ] || { bad "$md: missing"; continue; }
	dir=$(dirname "$md")
	while read -r line target; do
		[ -n "$target" ] || continue
		path=${target%%#*}
		anchor=
		case $target in *'#'*) anchor=${target#*#} ;; esac
		if [ -z "$path" ]; then file=$md; else file=$dir/$path; fi
		if [ ! -e "$file" ]; then
			bad "$md:$line: $target: no such file"
			continue
		fi
		if [ -n "$anchor" ]; then
			case $file in
			*.md) if slugs "$file" | grep -qxF -- "$anchor"; then ok
			      else bad "$md:$line: $target: no such heading"; fi ;;
			*) bad "$md:$line: $target: anchor into a file that is not Markdown" ;;
			esac
		else
			ok
		fi
	done <<EOF
$(links "$md")
EOF
done

# The quick start: the first fenced block after the heading, its lines.
quick=$(awk '
	/^## Quick start$/ { q = 1; next }
	q && /^## / { exit }
	q && /^```/ { if (inb) exit; inb = 1; next }
	inb && NF { print }' README.md)
n=$(printf '%s\n' "$quick" | grep -c .)
if [ "$n" -eq 2 ]; then ok; else bad "README.md: quick start block has $n lines, not 2"; fi
if printf '%s\n' "$quick" | grep -vq '^sh scripts/deps.sh \(--all \)\?&& '; then
	bad "README.md: a quick start line does not begin with sh scripts/deps.sh [--all] &&"
else
	ok
fi
second=$(printf '%s\n' "$quick" | sed -n 2p)
case $second in
*scripts/test-all.sh) ok ;;
*) bad "README.md: the second quick start command does not run scripts/test-all.sh" ;;
esac
if [ -f .ci/run ]; then
	if grep -qxF -- "$second" .ci/run; then ok
	else bad "README.md: the test command is not the one .ci/run runs"; fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
