#!/bin/sh
# vgpair.sh BUILD_A BUILD_B [PAIRS [SHAPE [TIER]]]: time two builds' RSA
# Montgomery kernels against each other in one process (pair_rsa.c), on
# every online CPU in turn, and print per size the median of the pairs'
# time ratios B/A (below 1: B is faster), their quartiles, and the ratio
# of the two builds' fastest runs; then the same for A against a second
# copy of itself (A/A), the control: how far from 1 a ratio moves only
# because the code sits elsewhere in the program (a few percent on Zen 5). BUILD_A and BUILD_B are meson build
# directories of two vgd trees (for example main and a branch, each built
# with `meson setup` and `ninja`); the same one twice is the control.
# PAIRS defaults to 3000, SHAPE to public (public: RSA's public
# operation, 48 and 64 limbs; exp: a private exponentiation's loop, 16 to
# 48 limbs), TIER to adx. Needs cc, ar, nm, objcopy and taskset. Nothing
# here is secret.
set -eu

usage() {
	echo "usage: vgpair.sh BUILD_A BUILD_B [PAIRS [public|exp [adx|base]]]" >&2
	exit 2
}
if [ $# -lt 2 ] || [ $# -gt 5 ]; then usage; fi
a=$1 b=$2 pairs=${3:-3000} shape=${4:-public} tier=${5:-adx}
case $shape in
public) sizes="48 64" ;;
exp) sizes="16 24 32 48" ;;
*) usage ;;
esac
case $tier in adx | base) ;; *) usage ;; esac
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A real archive of a build's kernels: meson's libvgkernels.a is thin (it
# names the build's objects), which objcopy cannot rewrite.
archive() {
	lib=$1/kernels/libvgkernels.a
	[ -f "$lib" ] || { echo "vgpair: no $lib (build it first)" >&2; exit 2; }
	(cd "$1/kernels" && ar t libvgkernels.a) >"$work/members"
	# shellcheck disable=SC2046 # one member a word
	(cd "$1/kernels" && ar rcs "$2" $(cat "$work/members"))
}
archive "$a" "$work/a.a"
archive "$b" "$work/b0.a"
# The renamed copy of a build: its defined symbols become B_name, and its
# references to them too, so it links beside the other build's objects.
rename() {
	nm --defined-only "$1" | awk 'NF == 3 { print $3 " B_" $3 }' | sort -u >"$work/syms"
	objcopy --redefine-syms="$work/syms" "$1" "$2"
}
rename "$work/b0.a" "$work/b.a"
rename "$work/a.a" "$work/a2.a"
for p in ab aa; do
	second=$work/b.a
	[ $p = aa ] && second=$work/a2.a
	cc -std=c11 -O2 -Wall -Wextra -Werror -o "$work/pair_$p" "$here/pair_rsa.c" \
		"$work/a.a" "$second" -lpthread
done

# Each size first as B against A, then as A against itself: the control,
# whose distance from 1 is what where the code lands alone does.
printf 'cpu\tpair\ttier\tlimbs\tshape\tmedian\tq1\tq3\tbest_ratio\tbest_a_tsc\tbest_b_tsc\n'
for cpu in $(seq 0 $(($(getconf _NPROCESSORS_ONLN) - 1))); do
	# a CPU outside this process's allowed set (a container's cpuset) is
	# skipped
	taskset -c "$cpu" true 2>/dev/null || continue
	for n in $sizes; do
		for p in ab aa; do
			label=B/A
			[ $p = aa ] && label=A/A
			printf '%s\t%s\t' "$cpu" "$label"
			taskset -c "$cpu" "$work/pair_$p" "$tier" "$n" "$shape" "$pairs"
		done
	done
done
