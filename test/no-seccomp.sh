#!/bin/sh
# configure found no libseccomp: report its tests skipped, not passed.
echo "SKIP: no libseccomp (seccomp.h): test/hostile/seccomp not built"
exit 77
