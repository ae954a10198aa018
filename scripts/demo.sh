#!/bin/sh
# What a newcomer sees: run from the build tree by `make demo`.
set -e
b=${top_builddir:-.}
echo "== examples/hello: random values from the C API"
"$b/examples/hello"
