#!/bin/sh
# vgpair.sh BUILD_A BUILD_B [PAIRS [SHAPE [TIER [PLACES]]]]: time two
# builds' RSA Montgomery kernels against each other in one process
# (pair_rsa.c), on every online CPU in turn, and print per size the
# median of the pairs' time ratios B/A (below 1: B is faster), their
# quartiles, and the ratio of the two builds' fastest runs; then the same
# for A against a second copy of itself (A/A), the control: how far from
# 1 a ratio moves only because the code sits elsewhere in the program.
# BUILD_A and BUILD_B are meson build directories of two vgd trees (for
# example main and a branch, each built with `meson setup` and `ninja`);
# the same one twice is the control. PAIRS defaults to 3000, SHAPE to
# public (public: RSA's public operation, 48 and 64 limbs; exp: a private
# exponentiation's loop, 16 to 48 limbs), TIER to adx.
#
# PLACES (1 to 12, default 1): where the code sits moves its time by up
# to 8 % on Zen 5 (a 128-byte shift of the same squaring did), so one
# link is one draw. With PLACES > 1 the second build's code (B, and A's
# copy in the control) is linked PLACES times, shifted by 0, 192, ...,
# 2112 bytes, and each line gives the median over the placements of the
# pairs' medians, with their smallest and largest.
#
# Needs cc, ar, nm, objcopy and taskset. Nothing here is secret.
set -eu

usage() {
	echo "usage: vgpair.sh BUILD_A BUILD_B [PAIRS [public|exp [adx|base [PLACES]]]]" >&2
	exit 2
}
if [ $# -lt 2 ] || [ $# -gt 6 ]; then usage; fi
a=$1 b=$2 pairs=${3:-3000} shape=${4:-public} tier=${5:-adx} places=${6:-1}
case $shape in
public) sizes="48 64" ;;
exp) sizes="16 24 32 48" ;;
*) usage ;;
esac
case $tier in adx | base) ;; *) usage ;; esac
case $places in [1-9] | 1[0-2]) ;; *) usage ;; esac
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
cc -std=c11 -O2 -Wall -Wextra -Werror -c -o "$work/pair.o" "$here/pair_rsa.c"
# Placement k: k * 192 bytes of int3 between A's objects and the second
# archive's, which the linker lays out in command-line order.
place=0
while [ $place -lt "$places" ]; do
	pad=$((place * 192))
	printf '\t.section .note.GNU-stack,"",@progbits\n\t.text\nvgpair_pad:\n\t.fill %d, 1, 0xcc\n' \
		$pad >"$work/pad.s"
	cc -c -o "$work/pad$place.o" "$work/pad.s"
	for p in ab aa; do
		second=$work/b.a
		[ $p = aa ] && second=$work/a2.a
		cc -o "$work/pair_${p}_$place" "$work/pair.o" "$work/a.a" "$work/pad$place.o" \
			"$second" -lpthread
	done
	place=$((place + 1))
done

# Each size first as B against A, then as A against itself: the control,
# whose distance from 1 is what where the code lands alone does.
if [ "$places" -eq 1 ]; then
	printf 'cpu\tpair\ttier\tlimbs\tshape\tmedian\tq1\tq3\tbest_ratio\tbest_a_tsc\tbest_b_tsc\n'
else
	printf 'cpu\tpair\ttier\tlimbs\tshape\tplaces\tmedian\tmin\tmax\n'
fi
for cpu in $(seq 0 $(($(getconf _NPROCESSORS_ONLN) - 1))); do
	# a CPU outside this process's allowed set (a container's cpuset) is
	# skipped
	taskset -c "$cpu" true 2>/dev/null || continue
	for n in $sizes; do
		for p in ab aa; do
			label=B/A
			[ $p = aa ] && label=A/A
			if [ "$places" -eq 1 ]; then
				printf '%s\t%s\t' "$cpu" "$label"
				taskset -c "$cpu" "$work/pair_${p}_0" "$tier" "$n" "$shape" "$pairs"
				continue
			fi
			: >"$work/out"
			place=0
			while [ $place -lt "$places" ]; do
				taskset -c "$cpu" "$work/pair_${p}_$place" "$tier" "$n" "$shape" \
					"$pairs" >>"$work/out"
				place=$((place + 1))
			done
			awk -v cpu="$cpu" -v label="$label" -v tier="$tier" -v n="$n" \
				-v shape="$shape" -v places="$places" '
				{ m[NR] = $4 }
				END {
					for (i = 1; i <= NR; i++)      # insertion sort: NR <= 12
						for (j = i; j > 1 && m[j - 1] > m[j]; j--) {
							t = m[j]; m[j] = m[j - 1]; m[j - 1] = t
						}
					med = NR % 2 ? m[(NR + 1) / 2] : (m[NR / 2] + m[NR / 2 + 1]) / 2
					printf "%s\t%s\t%s\t%s\t%s\t%d\t%.4f\t%.4f\t%.4f\n",
						cpu, label, tier, n, shape, places, med, m[1], m[NR]
				}' "$work/out"
		done
	done
done
