#!/bin/sh
# test_vgctl.sh: vgctl against a real vgd: every command, --json output
# parsed by python3, exit codes, and results checked with the openssl CLI
# (signatures verified, PEM public keys compared with openssl's own).
set -eu
. "$(dirname "$0")/daemon.sh"
vgd_start
V() { "$VG_VGCTL" --socket "$SOCK" "$@"; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); $1"; }

# --help documents the exit codes
"$VG_VGCTL" --help | grep -q "64 usage" || fail "--help lacks exit codes"
expect 64 "$VG_VGCTL"
expect 64 V frobnicate
expect 64 V sign ed
expect 2 "$VG_VGCTL" --socket "$T/absent.sock" ping

V ping | grep -q '^ok' || fail "ping"
V --json ping | json 'assert d["ok"] is True'
V --json hello | json 'assert d["max_inflight"]==128 and 1 in d["versions"] and "vgd" in d["server"]'
V hello | grep -q max_inflight || fail "hello"
V keys --json | json 'n={k["name"]:k for k in d}; assert set(n)=={"ed","ed-tls","x","rsa","ec256","ec384","rsa2050"}, n; assert n["rsa2050"]["bits"]==2050; assert n["rsa"]["bits"]==2048; assert n["ed-tls"]["ops"]==["tls13"]; assert n["x"]["type"]=="x25519"; assert n["ec256"]["type"]=="ecdsa-p256" and n["ec256"]["bits"]==256; assert n["ec384"]["type"]=="ecdsa-p384" and n["ec384"]["bits"]==384 and len(n["ec384"]["public"])==194'
V keys | grep -q '^rsa .*2048-bit' || fail "keys"
V keys | grep -q '^rsa2050 .*2050-bit' || fail "keys gives RSA sizes in bits"
V keys | grep -q '^ec384  *ecdsa-p384 .*allows: sign tls13' || fail "keys names the curve"
V --json stats | json 'assert isinstance(d, dict) and len(d) > 0'
V --json stats | json 'assert d["use"]==[], d["use"]' # no key used yet
V stats >/dev/null

# public keys: the same PEM openssl derives from the private key
for k in ed:ed25519.pem x:x25519.pem rsa:rsa2048.pem ec256:ecdsa-p256.pem ec384:ecdsa-p384.pem; do
	name=${k%%:*}
	file=${k#*:}
	V pubkey "$name" --out "$T/$name.pub"
	openssl pkey -pubin -in "$T/$name.pub" -noout || fail "openssl cannot parse pubkey $name"
	openssl pkey -in "$T/$file" -pubout -out "$T/$name.want"
	cmp -s "$T/$name.pub" "$T/$name.want" || fail "pubkey $name differs from openssl's"
done
V pubkey ed --raw > "$T/ed.raw"
[ "$(wc -c < "$T/ed.raw")" -eq 32 ] || fail "pubkey --raw"
[ "$(V pubkey ed --hex)" = "$(od -An -tx1 -v "$T/ed.raw" | tr -d ' \n')" ] || fail "pubkey --hex"
expect 1 V pubkey nope

# sign: ed25519 from a file and from stdin, verified by openssl
printf 'a message for vgctl\n' > "$T/msg"
V sign ed --alg ed25519 --in "$T/msg" --out "$T/sig"
openssl pkeyutl -verify -pubin -inkey "$T/ed.pub" -rawin -in "$T/msg" -sigfile "$T/sig" >/dev/null ||
	fail "ed25519 signature does not verify"
V sign ed --alg ed25519 < "$T/msg" > "$T/sig2"
cmp -s "$T/sig" "$T/sig2" || fail "stdin and --in differ"
[ "$(V sign ed --alg ed25519 --hex "$T/msg")" = "$(od -An -tx1 -v "$T/sig" | tr -d ' \n')" ] || fail "--hex"
V sign ed --alg ed25519 --base64 "$T/msg" | python3 -c "import sys,base64; sys.stdout.buffer.write(base64.b64decode(sys.stdin.read()))" | cmp -s - "$T/sig" || fail "--base64"
V --json sign ed --alg ed25519 --in "$T/msg" | json 'sys.stdout.buffer.write(bytes.fromhex(d["signature"]))' | cmp -s - "$T/sig" || fail "--json sign"
# RSA: the digest made by --hash, verified over the message by openssl
V sign rsa --alg rsa-pss-sha256 --hash --in "$T/msg" --out "$T/rsig"
openssl dgst -sha256 -verify "$T/rsa.pub" -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:32 \
	-signature "$T/rsig" "$T/msg" >/dev/null || fail "rsa-pss-sha256 does not verify"
V sign rsa --alg rsa-pkcs1-sha384 --hash --in "$T/msg" --out "$T/rsig"
openssl dgst -sha384 -verify "$T/rsa.pub" -signature "$T/rsig" "$T/msg" >/dev/null ||
	fail "rsa-pkcs1-sha384 does not verify"
# a digest given directly
openssl dgst -sha512 -binary "$T/msg" > "$T/dg"
V sign rsa --alg rsa-pkcs1-sha512 "$T/dg" > "$T/rsig"
openssl dgst -sha512 -verify "$T/rsa.pub" -signature "$T/rsig" "$T/msg" >/dev/null ||
	fail "rsa-pkcs1-sha512 does not verify"
# ECDSA: DER by default, verified over the message by openssl; --raw
# gives r||s, which openssl checks once it is wrapped in DER again
V sign ec256 --alg ecdsa-p256-sha256 --hash --in "$T/msg" --out "$T/esig"
openssl dgst -sha256 -verify "$T/ec256.pub" -signature "$T/esig" "$T/msg" >/dev/null ||
	fail "ecdsa-p256-sha256 does not verify"
V sign ec384 --alg ecdsa-p384-sha384 --hash "$T/msg" > "$T/esig"
openssl dgst -sha384 -verify "$T/ec384.pub" -signature "$T/esig" "$T/msg" >/dev/null ||
	fail "ecdsa-p384-sha384 does not verify"
V sign ec384 --alg ecdsa-p384-sha256 --hash "$T/msg" > "$T/esig"
openssl dgst -sha256 -verify "$T/ec384.pub" -signature "$T/esig" "$T/msg" >/dev/null ||
	fail "ecdsa-p384-sha256 does not verify"
V sign ec256 --alg ecdsa-p256-sha256 --hash --raw --in "$T/msg" --out "$T/eraw"
[ "$(wc -c < "$T/eraw")" -eq 64 ] || fail "--raw is not 64 bytes"
python3 - "$T/eraw" "$T/eder" <<'PY'
import sys
raw = open(sys.argv[1], "rb").read()
def integer(b):
    b = b.lstrip(b"\0") or b"\0"
    if b[0] & 0x80:
        b = b"\0" + b
    return bytes([2, len(b)]) + b
body = integer(raw[:32]) + integer(raw[32:])
open(sys.argv[2], "wb").write(bytes([0x30, len(body)]) + body)
PY
openssl dgst -sha256 -verify "$T/ec256.pub" -signature "$T/eder" "$T/msg" >/dev/null ||
	fail "ecdsa --raw signature does not verify"
[ "$(V sign ec384 --alg ecdsa-p384-sha384 --hash --raw --hex "$T/msg" | tr -d '\n' | wc -c)" -eq 192 ] ||
	fail "--raw --hex"
expect 1 V sign ec256 --alg ecdsa-p384-sha384 --hash "$T/msg"
V --json sign ec256 --alg ecdsa-p256-sha512 --hash --in "$T/msg" | json 'assert d["alg"]=="ecdsa-p256-sha512" and bytes.fromhex(d["signature"])[0]==0x30'
# tls13
openssl dgst -sha256 -binary "$T/msg" > "$T/th"
V sign ed-tls --alg tls13 --role client "$T/th" > "$T/tsig"
[ "$(wc -c < "$T/tsig")" -eq 64 ] || fail "tls13"
# tls13 with a P-384 key and a SHA-256 transcript hash: SHA-384 over the
# content (RFC 8446 4.2.3), DER; openssl verifies it over the content
V sign ec384 --alg tls13 "$T/th" > "$T/etsig"
python3 - "$T/th" "$T/content" <<'PY'
import sys
h = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(b" " * 64 + b"TLS 1.3, server CertificateVerify\0" + h)
PY
openssl dgst -sha384 -verify "$T/ec384.pub" -signature "$T/etsig" "$T/content" >/dev/null ||
	fail "ecdsa tls13 signature does not verify"
expect 1 V sign ed-tls --alg ed25519 "$T/msg"
expect 1 V sign nope --alg ed25519 "$T/msg"
expect 65 V sign ed --alg ed25519 --in "$T/absent"
expect 65 V sign rsa --alg rsa-pss-sha256 "$T/msg"
expect 64 V sign ed --alg md5 "$T/msg"

# x25519: the same secret as openssl derives from the peer's side
openssl genpkey -algorithm X25519 -out "$T/peer.pem" 2>/dev/null
openssl pkey -in "$T/peer.pem" -pubout -outform DER | tail -c 32 > "$T/peer.raw"
peer=$(od -An -tx1 -v "$T/peer.raw" | tr -d ' \n')
openssl pkeyutl -derive -inkey "$T/peer.pem" -peerkey "$T/x.pub" -out "$T/want.bin"
want=$(od -An -tx1 -v "$T/want.bin" | tr -d ' \n')
[ "$(V x25519 x "$peer")" = "$want" ] || fail "x25519 (hex peer)"
[ "$(V x25519 x "$T/peer.raw")" = "$want" ] || fail "x25519 (peer file)"
expect 65 V x25519 x 1234
expect 1 V x25519 x 0000000000000000000000000000000000000000000000000000000000000000

# rsa-private: undoes openssl's raw public operation
python3 -c "import os,sys; sys.stdout.buffer.write(b'\0'+os.urandom(255))" > "$T/m"
openssl pkeyutl -encrypt -pubin -inkey "$T/rsa.pub" -pkeyopt rsa_padding_mode:none -in "$T/m" -out "$T/c"
V rsa-private rsa --in "$T/c" --out "$T/m2"
cmp -s "$T/m" "$T/m2" || fail "rsa-private"
expect 65 V rsa-private rsa "$T/msg"

# bench
V --json bench ed --concurrency 16 --count 300 | json 'assert d["requests"]==300 and d["errors"]==0 and d["latency_us"]["p99.9"]>0, d'
V bench --count 200 --concurrency 4 | grep -q 'p99.9' || fail "bench ping"
V bench x --count 50 --concurrency 8 | grep -q '^x25519 x' || fail "bench x25519"
V --json bench ec256 --count 40 --concurrency 4 | json 'assert d["op"]=="sign" and d["alg"]==9 and d["requests"]==40 and d["errors"]==0, d'
V --json bench ec384 --op tls13 --count 20 | json 'assert d["op"]=="tls13" and d["requests"]==20 and d["errors"]==0, d'

# README, "Who used which key": the example's command, on a key the
# example names, added by a reload. Uses since it was loaded: 4 signs and
# 1 error from root, the last sign by a process whose pid we know.
cat >>"$T/vgd.conf" <<CONF
[key web-ecdsa]
file = ecdsa-p256.pem
allow = sign
CONF
kill -HUP "$VGD_PID"
i=0
until V keys | grep -q '^web-ecdsa '; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "vgd did not load web-ecdsa on reload"
	sleep 0.1
done
expect 1 V sign web-ecdsa --alg ed25519 "$T/msg"
for i in 1 2 3; do
	V sign web-ecdsa --alg ecdsa-p256-sha256 --hash "$T/msg" >/dev/null
done
"$VG_VGCTL" --socket "$SOCK" sign web-ecdsa --alg ecdsa-p256-sha256 --hash "$T/msg" >/dev/null &
pid=$!
wait $pid || fail "sign web-ecdsa"
line=$(VGD_SOCKET=$SOCK "$VG_VGCTL" stats | grep '^use web-ecdsa ' || true)
echo "$line" | grep -Eq "^use web-ecdsa uid 0: 4 sign, 1 errors, 0 refused; last [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z pid $pid\$" ||
	fail "the README's use line: '$line'"
V --json stats | json 'u=[r for r in d["use"] if r.get("key")=="web-ecdsa"]; assert len(u)==1 and u[0]["uid"]==0 and u[0]["sign"]==4 and u[0]["errors"]==1 and u[0]["refused"]==0 and u[0]["last_pid"]=='"$pid"' and u[0]["last"].endswith("Z") and u[0]["last_ms"]>0, u'
# refused by the key's policy: one more refusal in ed-tls's row (it was
# used above: one tls13 signature, one refusal)
V stats | grep -q '^use ed-tls uid 0: 1 sign, 0 errors, 1 refused; ' || fail "ed-tls's use: $(V stats | grep '^use ed-tls')"
expect 1 V sign ed-tls --alg ed25519 "$T/msg"
V stats | grep -q '^use ed-tls uid 0: 1 sign, 0 errors, 2 refused; ' || fail "policy refusal not counted"

# keys, when the caller may use none (a vgd reloaded with no key sections):
# a line on stderr says so, instead of nothing at all; exit 0; --json is an
# empty list.
sed -n '1,/^\[key/p' "$T/vgd.conf" | sed '$d' >"$T/nokeys.conf"
cp "$T/nokeys.conf" "$T/vgd.conf"
kill -HUP "$VGD_PID"
i=0
until grep -q 'reloaded: 0 key(s)' "$T/vgd.log"; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "vgd did not reload its config without keys"
	sleep 0.1
done
i=0
until [ "$(V --json keys)" = "[]" ]; do # the front installs the new set
	i=$((i + 1))
	[ $i -lt 600 ] || fail "keys --json with no keys: $(V --json keys)"
	sleep 0.1
done
expect 0 V keys
[ ! -s "$T/out" ] || fail "keys with no keys printed on stdout: $(cat "$T/out")"
grep -q "^vgctl: no keys: vgd has none this user may use" "$T/err" ||
	fail "keys with no keys: stderr was '$(cat "$T/err")'"
echo "ok"
