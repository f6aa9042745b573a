#!/bin/sh
# smoke-test.sh BUILDDIR: the build-time test of the Debian packages
# (dh_auto_test). The project's suites need tools a package build should
# not pull in; this checks the shipped conffile loads, then runs the built
# vgd on a temporary socket with a fresh Ed25519 key and checks a signature
# made through the built vgctl with openssl.
set -eu
B=$1
T=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "smoke-test: FAIL: $*" >&2; exit 1; }

"$B/daemon/vgd" --version
# As installed: /etc/vgd/vgd.conf next to the (empty) vgd.conf.d it includes.
mkdir "$T/etc" "$T/etc/vgd.conf.d"
cp debian/vgd.conf "$T/etc/vgd.conf"
"$B/daemon/vgd" --check-config -c "$T/etc/vgd.conf" | grep -q ' 0 key(s)' ||
	fail "debian/vgd.conf does not load as a config with no keys"

openssl genpkey -algorithm ed25519 -out "$T/ed.pem" 2>/dev/null
chmod 600 "$T/ed.pem"
openssl pkey -in "$T/ed.pem" -pubout -out "$T/ed.pub"
cat > "$T/vgd.conf" <<CONF
socket = $T/s
keyholders = 1
[key ed]
file = ed.pem
allow = sign
CONF
# As root vgd would change users and want its own (vgd-front), which a
# build machine does not have: run it as nobody instead.
run=
if [ "$(id -u)" -eq 0 ]; then
	chown -R nobody:nogroup "$T"
	run="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
$run "$B/daemon/vgd" -c "$T/vgd.conf" 2>"$T/log" &
pid=$!
i=0
until [ -S "$T/s" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat "$T/log" >&2; fail "vgd did not create its socket"; }
	sleep 0.1
done
printf 'smoke' > "$T/msg"
LD_LIBRARY_PATH="$B/client" "$B/client/vgctl" --socket "$T/s" sign ed --alg ed25519 \
	--in "$T/msg" --out "$T/sig" || fail "vgctl sign"
openssl pkeyutl -verify -pubin -inkey "$T/ed.pub" -rawin -in "$T/msg" -sigfile "$T/sig" ||
	fail "the signature does not verify"
echo "smoke-test: ok"
