#!/bin/sh
# genkey.sh BUILD_DIR: `vgctl genkey` against a running vgd, as root, the
# way vgctl(1) tells an admin to use it: vgd.conf with an include
# directory, a key directory of mode 0700, VGD_RELOAD naming the reload
# (no systemd here). Checks, for every key type:
#   - the printed public key is the one vgd then serves, and the key works
#     (signatures verify with openssl, X25519 agrees with openssl);
#   - the key file is PKCS#8 that openssl accepts, mode 0600;
#   - genkey never replaces a key or a file, refuses a policy the type
#     cannot have, a key directory others can read, and a non-root caller,
#     and leaves nothing behind when it refuses;
#   - --sealed: only the systemd-creds credential is written, it holds no
#     key bytes, `systemd-creds decrypt` gives the key back, and vgd loads
#     it from $CREDENTIALS_DIRECTORY as vgd.service's
#     LoadCredentialEncrypted= provides it, and signs with it.
set -eu
B=$1
VG_VGD=${VG_VGD:-$B/daemon/vgd}
VG_VGCTL=${VG_VGCTL:-$B/client/vgctl}
VGCTL=$VG_VGCTL
# vgd_tmp, vgd_run, vgd_cleanup and fail: the shell tests' daemon helpers.
. "$(dirname "$0")/../client/daemon.sh"
vgd_tmp
# Open to uid 65534, so that its genkey is refused for the key directory,
# not for an unreadable configuration.
chmod 755 "$T"

mkdir "$T/conf.d" "$T/keys" "$T/sealed" "$T/creds"
chmod 755 "$T/conf.d"
chmod 700 "$T/keys" "$T/sealed" "$T/creds"
cat >"$T/vgd.conf" <<CONF
socket = $T/vgd.sock
keyholders = 1
front_user = nobody
include = conf.d
CONF

# systemd decrypts each file of vgd.service's sealed directory into
# $CREDENTIALS_DIRECTORY as vgd-sealed_FILE when the service starts; here
# the reload command does that, then sends SIGHUP.
cat >"$T/reload.sh" <<'SH'
#!/bin/sh
set -e
umask 077
for f in "$T"/sealed/*.cred; do
	[ -e "$f" ] || continue
	n=vgd-sealed_$(basename "$f")
	systemd-creds decrypt --name="$n" "$f" "$T/creds/$n" 2>/dev/null
done
kill -HUP "$VGD_PID"
SH
chmod 755 "$T/reload.sh"

export CREDENTIALS_DIRECTORY="$T/creds"
vgd_run
export T VGD_PID
export VGD_RELOAD="$T/reload.sh"

gk() { "$VGCTL" --socket "$T/vgd.sock" genkey "$@" --config "$T/vgd.conf" --key-dir "$T/keys" --sealed-dir "$T/sealed"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

openssl genpkey -algorithm x25519 -out "$T/peer.pem" 2>/dev/null
openssl pkey -in "$T/peer.pem" -pubout -outform DER | tail -c 32 | od -An -tx1 | tr -d ' \n' >"$T/peer.hex"
printf 'a message signed by a key born in vgd' >"$T/msg"

for type in ed25519 x25519 ecdsa-p256 ecdsa-p384 rsa-2048 rsa-3072 rsa-4096; do
	name=k-$type
	allow=sign
	[ "$type" = x25519 ] && allow=x25519
	gk "$name" --type "$type" --allow "$allow" >"$T/$name.pub" 2>"$T/$name.err" ||
		fail "genkey $type: $(cat "$T/$name.err")"
	"$VGCTL" --socket "$T/vgd.sock" pubkey "$name" >"$T/$name.served" ||
		fail "vgd does not serve $name after genkey"
	cmp -s "$T/$name.pub" "$T/$name.served" || fail "$type: printed and served public keys differ"
	f=$T/keys/$name.pem
	[ "$(stat -c %a "$f")" = 600 ] || fail "$f: mode $(stat -c %a "$f")"
	openssl pkey -in "$f" -noout -check >/dev/null 2>&1 || openssl pkey -in "$f" -noout >/dev/null ||
		fail "$type: openssl does not read $f"
	openssl pkey -in "$f" -pubout | cmp -s - "$T/$name.pub" || fail "$type: file and public key differ"
	case $type in
	x25519)
		"$VGCTL" --socket "$T/vgd.sock" x25519 "$name" "$(cat "$T/peer.hex")" >"$T/vgd.shared"
		openssl pkeyutl -derive -inkey "$T/peer.pem" -peerkey "$T/$name.pub" |
			od -An -tx1 | tr -d ' \n' >"$T/ossl.shared"
		echo >>"$T/ossl.shared"
		cmp -s "$T/vgd.shared" "$T/ossl.shared" || fail "x25519: vgd and openssl disagree"
		;;
	ed25519)
		"$VGCTL" --socket "$T/vgd.sock" sign "$name" --alg ed25519 --in "$T/msg" --out "$T/sig"
		openssl pkeyutl -verify -pubin -inkey "$T/$name.pub" -rawin -in "$T/msg" -sigfile "$T/sig" \
			>/dev/null || fail "ed25519 signature does not verify"
		;;
	*)
		alg=rsa-pkcs1-sha256
		case $type in ecdsa-p256) alg=ecdsa-p256-sha256 ;; ecdsa-p384) alg=ecdsa-p384-sha384 ;; esac
		dg=-sha256
		[ "$type" = ecdsa-p384 ] && dg=-sha384
		"$VGCTL" --socket "$T/vgd.sock" sign "$name" --alg "$alg" --hash --in "$T/msg" --out "$T/sig"
		openssl dgst "$dg" -verify "$T/$name.pub" -signature "$T/sig" "$T/msg" >/dev/null ||
			fail "$type signature does not verify"
		;;
	esac
	echo "ok: $type"
done

# The default policy of a signing key: TLS 1.3 only.
gk k-default --type ecdsa-p256 >/dev/null 2>&1 || fail "genkey with the default policy"
grep -q '^allow = tls13$' "$T/conf.d/k-default.conf" || fail "default policy is not tls13"
"$VGCTL" --socket "$T/vgd.sock" keys | grep -q 'k-default .*allows: tls13$' || fail "k-default not listed"

# Never replaced: the same name again, a name whose file exists.
before=$(sha "$T/keys/k-ed25519.pem")
if gk k-ed25519 --type ed25519 >/dev/null 2>&1; then fail "genkey replaced k-ed25519"; fi
[ "$(sha "$T/keys/k-ed25519.pem")" = "$before" ] || fail "k-ed25519's file changed"
echo "not a key" >"$T/keys/taken.pem"
chmod 600 "$T/keys/taken.pem"
if gk taken --type ed25519 >/dev/null 2>&1; then fail "genkey wrote over keys/taken.pem"; fi
[ "$(cat "$T/keys/taken.pem")" = "not a key" ] || fail "keys/taken.pem changed"
[ ! -e "$T/conf.d/taken.conf" ] || fail "a refused genkey left a section"
rm -f "$T/keys/taken.pem"

# Refused before a key exists: a policy the type cannot have, a key
# directory others may read, a caller who is not root.
if gk bad --type x25519 --allow sign >/dev/null 2>&1; then fail "x25519 key allowed to sign"; fi
chmod 755 "$T/keys"
if gk bad --type ed25519 >/dev/null 2>&1; then fail "genkey used a key directory of mode 0755"; fi
chmod 700 "$T/keys"
if command -v setpriv >/dev/null; then
	if setpriv --reuid=65534 --regid=65534 --clear-groups "$VGCTL" --socket "$T/vgd.sock" \
		genkey bad --type ed25519 --config "$T/vgd.conf" --key-dir "$T/keys" >/dev/null 2>&1; then
		fail "genkey worked for uid 65534"
	fi
fi
[ -z "$(ls -A "$T/keys" | grep bad || true)" ] || fail "a refused genkey left a key file"
[ ! -e "$T/conf.d/bad.conf" ] || fail "a refused genkey left a section"
ls -A "$T/keys" "$T/conf.d" | grep -q '^\.' && fail "genkey left a temporary file"

# Sealed: the credential is the only file written.
gk s-p256 --type ecdsa-p256 --allow sign --uids 0 --sealed >"$T/s.pub" 2>"$T/s.err" ||
	fail "genkey --sealed: $(cat "$T/s.err")"
[ "$(ls -A "$T/sealed")" = "s-p256.cred" ] || fail "sealed directory holds: $(ls -A "$T/sealed")"
[ ! -e "$T/keys/s-p256.pem" ] || fail "--sealed wrote a clear key file"
grep -q '^credential = vgd-sealed_s-p256.cred$' "$T/conf.d/s-p256.conf" || fail "sealed section"
systemd-creds decrypt --name=vgd-sealed_s-p256.cred "$T/sealed/s-p256.cred" "$T/clear.pem" 2>/dev/null ||
	fail "systemd-creds decrypt does not give the key back"
openssl pkey -in "$T/clear.pem" -pubout | cmp -s - "$T/s.pub" || fail "decrypted key is not the printed one"
openssl pkey -in "$T/clear.pem" -outform DER -out "$T/clear.der"
# No 8-byte run of the key's DER, nor any line of its PEM, in the stored file.
python3 - "$T/clear.der" "$T/clear.pem" "$T/sealed/s-p256.cred" <<'PY' || fail "the credential holds key bytes"
import sys
der, pem, cred = (open(p, "rb").read() for p in sys.argv[1:4])
runs = [der[i:i + 8] for i in range(0, len(der) - 8)]
lines = [l for l in pem.splitlines() if l and not l.startswith(b"-----")]
sys.exit(1 if any(r in cred for r in runs) or any(l in cred for l in lines) else 0)
PY
"$VGCTL" --socket "$T/vgd.sock" pubkey s-p256 | cmp -s - "$T/s.pub" || fail "vgd does not serve the sealed key"
"$VGCTL" --socket "$T/vgd.sock" sign s-p256 --alg ecdsa-p256-sha256 --hash --in "$T/msg" --out "$T/sig"
openssl dgst -sha256 -verify "$T/s.pub" -signature "$T/sig" "$T/msg" >/dev/null ||
	fail "sealed key's signature does not verify"
echo "ok: sealed"

# What vgd --check-config reads is what genkey wrote.
"$VG_VGD" --check-config -c "$T/vgd.conf" --credentials-dir "$T/creds" >/dev/null 2>&1 ||
	fail "vgd --check-config refuses the generated configuration"
echo "ok: genkey"
