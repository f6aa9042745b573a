#!/bin/sh
# The shipped example configuration (systemd/vgd.conf.example) is a
# contract: vgd --check-config accepts it as written, with its keys
# provided as credentials the way vgd.service provides them, and its
# commented ECDSA section too once uncommented.
# Usage: example_config.sh VGD EXAMPLE
set -eu
vgd=$1
example=$2
d=$(mktemp -d)
mkdir "$d/vgd.conf.d" # the example includes it; the package makes it
trap 'rm -rf "$d"' EXIT
openssl genpkey -algorithm ed25519 -out "$d/vgd_web-ed25519.pem" 2>/dev/null
openssl ecparam -name prime256v1 -genkey -noout -out "$d/vgd_web-ecdsa.pem"
chmod 600 "$d"/*.pem
# Run as root by the tests: name users that exist; under vgd.service the
# example needs none (the unit runs vgd as user vgd).
users="user = nobody"
[ "$(id -u)" = 0 ] && users="$users
front_user = daemon"
as_written="$d/as-written.conf"
{ echo "$users"; cat "$example"; } > "$as_written"
out=$(CREDENTIALS_DIRECTORY=$d "$vgd" --check-config -c "$as_written" 2>&1) ||
	{ echo "example as written refused: $out"; exit 1; }
echo "$out" | grep -q "web-ed25519" || { echo "no web-ed25519 in: $out"; exit 1; }
if echo "$out" | grep -q "web-ecdsa"; then
	echo "the commented ECDSA section was loaded: $out"; exit 1
fi
# Uncomment the block from "# [key web-ecdsa]" to the next blank line.
uncommented="$d/ecdsa.conf"
{ echo "$users"; sed '/^# \[key web-ecdsa\]/,/^$/s/^# //' "$example"; } > "$uncommented"
out=$(CREDENTIALS_DIRECTORY=$d "$vgd" --check-config -c "$uncommented" 2>&1) ||
	{ echo "example with the ECDSA section refused: $out"; exit 1; }
echo "$out" | grep -q "web-ecdsa.*ecdsa-p256" || { echo "no ecdsa-p256 web-ecdsa in: $out"; exit 1; }
echo "ok: $out"
