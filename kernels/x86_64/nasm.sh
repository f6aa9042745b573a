#!/bin/sh
# nasm.sh NASM DEPFILE OUTPUT NASM-ARGS... INPUT: assemble INPUT into OUTPUT
# and write DEPFILE, the make-style list of every file INPUT %includes, so
# ninja rebuilds the object when an included file changes (meson.build's
# nasm_gen). Two runs because nasm 2.16.01's -MD, which assembles and
# lists dependencies in one run, lists only the top file (nasm bug
# 3392832, fixed in 2.16.02), while its dependency-only mode (-M) lists
# every include; the extra run costs a preprocessing pass. Nothing here
# is secret.
set -e
nasm=$1 dep=$2 out=$3
shift 3
"$nasm" "$@" -M -MQ "$out" -MF "$dep"
exec "$nasm" "$@" -o "$out"
