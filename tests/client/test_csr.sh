#!/bin/sh
# test_csr.sh: `vgctl csr` and ALG csr against a real vgd whose keys allow
# only tls13: for every key type that signs, the request passes
# `openssl req -verify`, carries the subject and names asked for, the key
# vgd holds (compared with openssl's own from the key file) and the
# signature algorithm X.509 names for it. Refused: an X25519 key, a key
# whose policy allows neither sign nor tls13, a caller (uid 65534) not in
# csr_uids until a reload adds it, a key hidden from that caller, and raw
# ALG csr signs of TLS 1.3 content or of another key's request; and a
# csr_uids that is not a uid list is a configuration error.
set -eu
. "$(dirname "$0")/daemon.sh"

# as_nobody CMD...: run CMD as uid/gid 65534, without root's groups
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

command -v setpriv >/dev/null || { echo "SKIP: no setpriv" >&2; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (to run a client as another uid)" >&2; exit 77; }

vgd_tmp
chmod 755 "$T" # the other uid reaches the socket
vgd_keys ed25519.pem ed25519-b.pem ecdsa-p256.pem ecdsa-p384.pem rsa2048.pem rsa3072.pem \
	rsa4096.pem x25519.pem
write_conf() {
	cat > "$T/vgd.conf" <<CONF
socket = $SOCK
socket_mode = 0666
keyholders = 1
log_level = debug
front_user = nobody
csr_uids = $1
[key ed]
file = ed25519.pem
allow = tls13
[key ec256]
file = ecdsa-p256.pem
allow = tls13
[key ec384]
file = ecdsa-p384.pem
allow = tls13
[key rsa2048]
file = rsa2048.pem
allow = tls13
[key rsa3072]
file = rsa3072.pem
allow = tls13
[key rsa4096]
file = rsa4096.pem
allow = tls13
[key x]
file = x25519.pem
allow = x25519
[key rsa-raw]
file = rsa2048.pem
allow = rsa-private
[key root-only]
file = ed25519-b.pem
allow = sign
uids = 0
CONF
}
# csr_uids takes a uid list like a key's uids, nothing else
for bad in "" "root" "0,-1"; do
	write_conf "$bad"
	set +e
	"$VG_VGD" --check-config -c "$T/vgd.conf" >"$T/out" 2>&1
	rc=$?
	set -e
	[ $rc -eq 1 ] && grep -q "bad value for 'csr_uids'" "$T/out" ||
		fail "csr_uids = '$bad' was not refused: $(cat "$T/out")"
done
write_conf 0
vgd_run
V() { "$VG_VGCTL" --socket "$SOCK" "$@"; }

SUBJECT='CN=example.org,O=Example\, Ltd,OU=Ops,L=London,ST=England,C=GB'
SAN='DNS:example.org,DNS:www.example.org,IP:192.0.2.1,IP:2001:db8::1'
WANT_SUBJECT='subject=CN = example.org, O = "Example, Ltd", OU = Ops, L = London, ST = England, C = GB'
WANT_SAN='DNS:example.org, DNS:www.example.org, IP Address:192.0.2.1, IP Address:2001:DB8:0:0:0:0:0:1'

for k in ed:ed25519.pem:ED25519 ec256:ecdsa-p256.pem:ecdsa-with-SHA256 \
	ec384:ecdsa-p384.pem:ecdsa-with-SHA384 rsa2048:rsa2048.pem:sha256WithRSAEncryption \
	rsa3072:rsa3072.pem:sha256WithRSAEncryption rsa4096:rsa4096.pem:sha256WithRSAEncryption; do
	name=${k%%:*}
	rest=${k#*:}
	file=${rest%%:*}
	sigalg=${rest#*:}
	expect 0 V csr "$name" --subject "$SUBJECT" --san "$SAN" --out "$T/$name.csr"
	head -n 1 "$T/$name.csr" | grep -qx -- '-----BEGIN CERTIFICATE REQUEST-----' ||
		fail "$name: not a PEM certificate request"
	# 64-column base64 between the lines, as PEM (RFC 7468) writes it
	awk 'NR > 1 && !/^-----/ && length($0) > 64 { bad = 1 } END { exit bad }' "$T/$name.csr" ||
		fail "$name: PEM lines over 64 columns"
	openssl req -in "$T/$name.csr" -verify -noout 2>"$T/verify" ||
		fail "$name: openssl req -verify fails: $(cat "$T/verify")"
	grep -q 'verify OK' "$T/verify" || fail "$name: openssl did not say verify OK"
	[ "$(openssl req -in "$T/$name.csr" -noout -subject)" = "$WANT_SUBJECT" ] ||
		fail "$name: subject is $(openssl req -in "$T/$name.csr" -noout -subject)"
	openssl req -in "$T/$name.csr" -noout -text > "$T/$name.txt"
	grep -qF "$WANT_SAN" "$T/$name.txt" || fail "$name: subjectAltName missing: $(cat "$T/$name.txt")"
	grep -q "Signature Algorithm: $sigalg" "$T/$name.txt" || fail "$name: not signed with $sigalg"
	# the request's key is vgd's (vgctl pubkey) and the key file's (openssl)
	openssl req -in "$T/$name.csr" -noout -pubkey > "$T/$name.csrpub"
	V pubkey "$name" > "$T/$name.pub"
	openssl pkey -in "$T/$file" -pubout > "$T/$name.want"
	cmp -s "$T/$name.csrpub" "$T/$name.pub" || fail "$name: the request's key is not vgctl pubkey's"
	cmp -s "$T/$name.csrpub" "$T/$name.want" || fail "$name: the request's key is not the key file's"
done
# no --san: empty attributes, still a valid request
expect 0 V csr ec256 --subject CN=plain.example
openssl req -in "$T/out" -verify -noout 2>/dev/null || fail "a request without --san does not verify"
openssl req -in "$T/out" -noout -text | grep -q 'Alternative Name' && fail "names without --san"

# refused: cannot sign, a policy with neither sign nor tls13
expect 1 V csr x --subject CN=x
grep -q 'key cannot sign' "$T/err" || fail "x25519: $(cat "$T/err")"
expect 1 V csr rsa-raw --subject CN=x
grep -q 'does not allow csr' "$T/err" || fail "rsa-private only: $(cat "$T/err")"
# usage errors are found before vgd is asked
expect 64 V csr ec256 --subject 'CN=a,XX=b'
expect 64 V csr ec256 --subject 'C=GBR'
expect 64 V csr ec256 --subject 'CN=a' --san 'URI:http://x'
expect 64 V csr ec256

# a caller outside csr_uids, allowed the key: "not allowed", saying why;
# a key hidden from it: no such key, as for any request
expect 1 as_nobody "$VG_VGCTL" --socket "$SOCK" csr ec256 --subject CN=x
grep -q "csr_uids" "$T/err" || fail "uid 65534 refused without naming csr_uids: $(cat "$T/err")"
[ -s "$T/out" ] && fail "a refused request printed something"
expect 1 as_nobody "$VG_VGCTL" --socket "$SOCK" sign ec256 --alg csr --in "$T/ec256.csr"
grep -q "csr_uids" "$T/err" || fail "raw csr sign by uid 65534: $(cat "$T/err")"
expect 1 as_nobody "$VG_VGCTL" --socket "$SOCK" csr root-only --subject CN=x
grep -q "no such key" "$T/err" || fail "hidden key: $(cat "$T/err")"
# (the caller may still use the key the way its policy says)
python3 -c "import sys; sys.stdout.buffer.write(bytes(32))" > "$T/hash"
expect 0 as_nobody "$VG_VGCTL" --socket "$SOCK" sign ec256 --alg tls13 --in "$T/hash"

# raw ALG csr: the body of a request for the key is signed; TLS 1.3
# content and another key's request are BAD_INPUT, with no signature
python3 - "$T" <<'PY'
import base64, sys
t = sys.argv[1]
def body(name):
    pem = open(f"{t}/{name}.csr").read().split("-----")[2]
    der = base64.b64decode("".join(pem.split()))
    # CertificationRequest ::= SEQUENCE { CertificationRequestInfo, ... }
    def hdr(b, o):
        n = b[o + 1]
        if n < 0x80:
            return o + 2, n
        k = n & 0x7f
        return o + 2 + k, int.from_bytes(b[o + 2:o + 2 + k], "big")
    start, _ = hdr(der, 0)
    cs, cl = hdr(der, start)
    return der[start:cs + cl]
open(f"{t}/ed.cri", "wb").write(body("ed"))
open(f"{t}/ec256.cri", "wb").write(body("ec256"))
tls = b" " * 64 + b"TLS 1.3, server CertificateVerify" + b"\0" + bytes(range(32))
open(f"{t}/tls13.content", "wb").write(tls)
PY
expect 0 V sign ed --alg csr --in "$T/ed.cri" --out "$T/ed.sig"
openssl pkey -in "$T/ed25519.pem" -pubout > "$T/ed.pubkey"
openssl pkeyutl -verify -pubin -inkey "$T/ed.pubkey" -rawin -in "$T/ed.cri" \
	-sigfile "$T/ed.sig" >/dev/null || fail "raw csr signature does not verify"
for k in ed ec256 ec384 rsa2048; do
	for data in tls13.content ed.cri ec256.cri; do
		[ "$k.cri" = "$data" ] && continue
		rm -f "$T/bad.sig"
		expect 1 V sign "$k" --alg csr --in "$T/$data" --out "$T/bad.sig"
		grep -q 'not a certification request for this key' "$T/err" ||
			fail "$k signed $data with csr: $(cat "$T/err")"
		[ -s "$T/bad.sig" ] && fail "$k: a signature for $data"
	done
done

# csr_uids reloads with SIGHUP: uid 65534 added, then its request works
write_conf "0, 65534"
kill -HUP "$VGD_PID"
i=0
until as_nobody "$VG_VGCTL" --socket "$SOCK" csr ec256 --subject CN=nobody.example \
	>"$T/nobody.csr" 2>"$T/err"; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "csr_uids did not reload: $(cat "$T/err")"
	sleep 0.05
done
openssl req -in "$T/nobody.csr" -verify -noout 2>/dev/null || fail "uid 65534's request does not verify"
echo "ok"
