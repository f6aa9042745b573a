#!/bin/sh
# demo.sh BUILD_DIR: what `./run demo` shows. Generates demo keys with
# openssl, starts vgd on a temporary socket, drives it with vgctl, verifies
# an Ed25519 signature with openssl, then stops vgd and cleans up.
set -eu
B=$1
T=$(mktemp -d /tmp/vgd-demo.XXXXXX)
PID=""
cleanup() {
	if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
		kill -TERM "$PID"
		wait "$PID" 2>/dev/null || true
	fi
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

step() { printf '\n==> %s\n' "$*"; }

step "generating demo keys in $T"
umask 077
openssl genpkey -algorithm ed25519 -out "$T/ed25519.pem"
openssl genpkey -algorithm x25519 -out "$T/x25519.pem"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$T/rsa2048.pem" 2>/dev/null
openssl ecparam -name prime256v1 -genkey -noout -out "$T/p256.pem"
openssl pkey -in "$T/ed25519.pem" -pubout -out "$T/ed25519.pub"
cat > "$T/vgd.conf" <<CONF
socket = $T/vgd.sock
keyholders = 2
log_level = info
# As root, the front runs as a user of its own; a real setup creates
# vgd-front (systemd/vgd.sysusers) instead of borrowing nobody.
front_user = nobody

[key demo-ed25519]
file = ed25519.pem
allow = sign

[key demo-x25519]
file = x25519.pem
allow = x25519

[key demo-rsa2048]
file = rsa2048.pem
allow = sign, rsa-private

[key demo-p256]
file = p256.pem
allow = sign, tls13
CONF
echo "config: $T/vgd.conf"

step "starting vgd"
"$B/daemon/vgd" -c "$T/vgd.conf" 2>"$T/vgd.log" &
PID=$!
i=0
until "$B/client/vgctl" --socket "$T/vgd.sock" ping >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$PID" 2>/dev/null; then
		echo "vgd did not start:" >&2
		cat "$T/vgd.log" >&2
		exit 1
	fi
	sleep 0.1
done
echo "vgd running, pid $PID, socket $T/vgd.sock"

step "vgctl ping"
"$B/client/vgctl" --socket "$T/vgd.sock" ping

step "vgctl keys"
"$B/client/vgctl" --socket "$T/vgd.sock" keys

step "vgctl sign demo-ed25519 --alg ed25519 (message: 'hello from the vgd demo')"
printf 'hello from the vgd demo' > "$T/msg"
"$B/client/vgctl" --socket "$T/vgd.sock" sign demo-ed25519 --alg ed25519 --in "$T/msg" --out "$T/sig"
echo "signature: $(od -An -tx1 -v "$T/sig" | tr -d ' \n')"

step "verifying the signature with openssl (independent of vgd)"
openssl pkeyutl -verify -pubin -inkey "$T/ed25519.pub" -rawin -in "$T/msg" -sigfile "$T/sig"

step "vgctl sign demo-p256 --alg ecdsa-p256-sha256 --hash (the same message; DER signature)"
"$B/client/vgctl" --socket "$T/vgd.sock" pubkey demo-p256 --out "$T/p256.pub"
"$B/client/vgctl" --socket "$T/vgd.sock" sign demo-p256 --alg ecdsa-p256-sha256 --hash \
	--in "$T/msg" --out "$T/sig-p256"
echo "signature: $(od -An -tx1 -v "$T/sig-p256" | tr -d ' \n')"

step "verifying the ECDSA signature with openssl against vgd's public key"
openssl dgst -sha256 -verify "$T/p256.pub" -signature "$T/sig-p256" "$T/msg"

step "stopping vgd (SIGTERM: drains, then exits)"
kill -TERM "$PID"
wait "$PID" || true
PID=""
echo "daemon log:"
sed 's/^/  /' "$T/vgd.log"
echo
echo "demo OK: vgd signed with keys it holds, and openssl verified the signatures."
