#!/bin/sh
# The `vrandom info` samples in README.md and doc/design.md show every
# label the tool prints, and only those: on the vDSO backend, which
# prints them all, the two lists must be equal; elsewhere the tool's
# must be among the samples'.
V=${top_builddir:-.}/src/cli/vrandom
top=${top_srcdir:-.}
[ -x "$V" ] || { echo "no $V: build first"; exit 99; }
labels() { sed -n 's/^\([a-z][a-z ]*:\) .*/\1/p' | sort -u; }
tool=$("$V" info | labels)
[ -n "$tool" ] || { echo "FAIL: vrandom info printed no labels"; exit 1; }
passed=0 failed=0
for doc in README.md doc/design.md; do
	sample=$(sed -n '/^\$ vrandom info$/,/^\$ /p' "$top/$doc" | sed '1d;$d' | labels)
	missing=$(printf '%s\n' "$tool" | grep -vxF "$sample")
	extra=$(printf '%s\n' "$sample" | grep -vxF "$tool")
	if [ -n "$missing" ]; then
		echo "FAIL: $doc: its sample lacks" $missing
		failed=$((failed + 1))
	elif [ -n "$extra" ] && "$V" info | grep -q '^backend: *vdso'; then
		echo "FAIL: $doc: its sample has labels the tool no longer prints:" $extra
		failed=$((failed + 1))
	else
		echo "ok: $doc shows the $(printf '%s\n' "$tool" | wc -l) labels of vrandom info"
		passed=$((passed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
