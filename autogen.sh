#!/bin/sh
# Bootstrap a git checkout: generates configure and Makefile.in.
set -e
cd "$(dirname "$0")"
mkdir -p m4
exec autoreconf -fi
