#!/bin/sh
# keylife.sh: what making a key costs, from the command line.
#
#   keylife.sh genkey BUILD [ROUNDS] [TYPES]
#       Wall time of one key from each generator, as an admin runs it:
#       `vgctl genkey --no-reload` (vgd's constant-time generators, the
#       key read back by vgd's loader, written with its section),
#       `openssl genpkey` (Debian's OpenSSL 3.0) and aws-lc's `bssl genrsa`
#       (../shared/peers, when present; RSA only). ROUNDS interleaved
#       rounds (default 31), each generator once per round in turn;
#       prints the median, 10th and 90th percentile and the ratio of
#       medians to OpenSSL. TYPES: default rsa-3072.
#   keylife.sh tls BUILD
#       A new ECDSA P-256 key from nothing to a TLS 1.3 handshake through
#       nginx: genkey, csr, a test CA issuing the certificate, nginx
#       switched to it, the first handshake that shows the new key. Runs
#       doc/nginx.md's "Keys born in vgd" blocks (tests/tls/site.sh) and
#       prints each step's wall time.
#
# Measurements, not assertions: the `bench` suite runs both with one
# round to check that they work.
set -eu
mode=${1:-}
B=${2:-}
[ -n "$mode" ] && [ -n "$B" ] || { sed -n '2,22p' "$0" >&2; exit 64; }
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
AWSLC=${VG_AWSLC_DIR:-$SRC/../shared/peers/aws-lc-5.5.0}

now_ns() { date +%s%N; }
# milliseconds between two now_ns readings
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }'; }

# median, p10, p90 of the numbers on stdin (ms)
stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		hi = int(NR * 0.9); if (hi < 1) hi = 1
		printf "%.1f %.1f %.1f", v[int((NR + 1) / 2)], v[int(NR * 0.1) + 1], v[hi] }'
}

genkey_mode() {
	rounds=${3:-31}
	types=${4:-rsa-3072}
	T=$(mktemp -d /tmp/vgd-keylife.XXXXXX)
	trap 'rm -rf "$T"' EXIT
	mkdir -m 755 "$T/conf.d"
	mkdir -m 700 "$T/keys"
	printf 'socket = %s/none.sock\ninclude = conf.d\n' "$T" >"$T/vgd.conf"
	echo "CPU:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
	for type in $types; do
		bits=${type#rsa-}
		: >"$T/vgd.ms"
		: >"$T/openssl.ms"
		: >"$T/bssl.ms"
		r=0
		while [ $r -lt "$rounds" ]; do
			t0=$(now_ns)
			"$B/client/vgctl" genkey "k$r" --type "$type" --no-reload --config "$T/vgd.conf" \
				--key-dir "$T/keys" >/dev/null 2>&1 || { echo "vgctl genkey failed" >&2; exit 1; }
			t1=$(now_ns)
			ms "$t0" "$t1" >>"$T/vgd.ms"
			rm -f "$T/keys/k$r.pem" "$T/conf.d/k$r.conf"
			case $type in
			rsa-*) set -- -algorithm RSA -pkeyopt "rsa_keygen_bits:$bits" ;;
			ecdsa-p256) set -- -algorithm EC -pkeyopt ec_paramgen_curve:P-256 ;;
			ecdsa-p384) set -- -algorithm EC -pkeyopt ec_paramgen_curve:P-384 ;;
			*) set -- -algorithm "$type" ;;
			esac
			t0=$(now_ns)
			openssl genpkey "$@" -out "$T/o.pem" 2>/dev/null
			t1=$(now_ns)
			ms "$t0" "$t1" >>"$T/openssl.ms"
			if [ -x "$AWSLC/bssl" ] && [ "$bits" != "$type" ]; then
				t0=$(now_ns)
				"$AWSLC/bssl" genrsa -bits "$bits" >"$T/b.pem" 2>/dev/null
				t1=$(now_ns)
				ms "$t0" "$t1" >>"$T/bssl.ms"
			fi
			r=$((r + 1))
		done
		set -- $(stats <"$T/openssl.ms")
		ossl=$1
		printf '%-11s %-28s %10s %10s %10s %8s\n' "$type" generator "median ms" "p10" "p90" "÷openssl"
		for g in vgd openssl bssl; do
			[ -s "$T/$g.ms" ] || continue
			set -- $(stats <"$T/$g.ms")
			case $g in
			vgd) name="vgctl genkey --no-reload" ;;
			openssl) name="openssl genpkey ($(openssl version | cut -d' ' -f2))" ;;
			bssl) name="bssl genrsa (aws-lc)" ;;
			esac
			printf '%-11s %-28s %10s %10s %10s %8s\n' "$type" "$name" "$1" "$2" "$3" \
				"$(awk -v a="$1" -v b="$ossl" 'BEGIN { printf "%.2f", a / b }')"
		done
		echo "($rounds interleaved rounds; wall time of each command, process start included)"
	done
}

case $mode in
genkey) genkey_mode "$@" ;;
tls)
	VG_KEYLIFE_TIMING=1 sh "$SRC/tests/tls/site.sh" "$B"
	;;
*) sed -n '2,22p' "$0" >&2; exit 64 ;;
esac
