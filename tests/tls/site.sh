#!/bin/sh
# site.sh [BUILD]: doc/nginx.md "Keys born in vgd" run as written, against nginx
# as Debian runs it (root master, www-data workers) and a vgd holding the
# keys, while handshakes run without pause (hsloop). The page's blocks are
# taken from the page: the site's nginx block, the first key's commands
# and the rotation's, with this test's paths in place of /etc/vgd,
# /etc/ssl and /run, its processes in place of systemctl, and a test CA
# (openssl x509 -req on the --csr file, written to the --fullchain-path)
# in place of certbot. Checks: every handshake of the whole run succeeds
# (verified against the test CA, HTTP answer checked), nginx ends up
# serving the new certificate with the new key, and vgd no longer has the
# old key.
#
# Environment (tests/tls/meson.build): VG_NGINX VG_OPENSSL VG_VGD VG_VGCTL
# VG_PROVIDER_DIR VG_DOC_NGINX VG_HSLOOP; or BUILD, a build directory, for
# the ones not set.
#
# VG_KEYLIFE_TIMING=1 (bench/keylife/keylife.sh tls): time the first key
# from nothing to nginx's first TLS 1.3 handshake with it, print the
# times, and stop there.
set -eu
if [ -n "${1:-}" ]; then
	B=$(cd "$1" && pwd)
	SRC=$(cd "$(dirname "$0")/../.." && pwd)
	: "${VG_NGINX:=/usr/sbin/nginx}" "${VG_OPENSSL:=$(command -v openssl)}"
	: "${VG_VGD:=$B/daemon/vgd}" "${VG_VGCTL:=$B/client/vgctl}" "${VG_PROVIDER_DIR:=$B/provider}"
	: "${VG_DOC_NGINX:=$SRC/doc/nginx.md}" "${VG_HSLOOP:=$B/tests/tls/hsloop}"
fi
now_ms() { awk -v t="$(date +%s%N)" 'BEGIN { printf "%.1f", t / 1e6 }'; }
for v in VG_NGINX VG_OPENSSL VG_VGD VG_VGCTL VG_PROVIDER_DIR VG_DOC_NGINX VG_HSLOOP; do
	eval "[ -n \"\${$v:-}\" ]" || { echo "rotate.sh: $v is not set" >&2; exit 1; }
done
getent passwd www-data >/dev/null || { echo "rotate.sh: no user www-data" >&2; exit 1; }

T=$(mktemp -d /tmp/vgd-site.XXXXXX)
chmod 755 "$T"
VGD_PID="" NGINX_PID="" LOAD_PID=""
cleanup() {
	for p in $LOAD_PID $NGINX_PID $VGD_PID; do
		kill -TERM "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail() {
	echo "FAIL: $*" >&2
	for f in "$T/vgd.log" "$T/nginx-error.log" "$T/nginx.out" "$T/block.out"; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -25 "$f" >&2; }
	done
	exit 1
}

# The page's first ```LANG block after the line HEADING.
doc_block() {
	awk -v h="$1" -v lang="$2" '
		$0 == h { found = 1; next }
		found && !inside && $0 == "```" lang { inside = 1; next }
		inside && $0 == "```" { exit }
		inside { print }' "$VG_DOC_NGINX"
}

E=$T/etc/vgd
mkdir -p "$E/vgd.conf.d" "$E/live-keys" "$E/refs" "$T/etc/ssl" "$T/run" "$T/www"
chmod 700 "$E/live-keys"
echo "hello from a key born in vgd" >"$T/www/index.html"
chmod 644 "$T/www/index.html"
cat >"$E/vgd.conf" <<CONF
socket = $T/vgd.sock
socket_mode = 0666
keyholders = 1
front_user = nobody
include = vgd.conf.d
CONF
cat >"$E/openssl.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
vgd = vgd_sect
[default_sect]
activate = 1
[vgd_sect]
module = $VG_PROVIDER_DIR/vgd.so
socket = $T/vgd.sock
activate = 1
CNF

"$VG_VGD" -c "$E/vgd.conf" 2>"$T/vgd.log" &
VGD_PID=$!
i=0
until "$VG_VGCTL" --socket "$T/vgd.sock" ping >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 100 ] && kill -0 "$VGD_PID" 2>/dev/null || fail "vgd did not start"
	sleep 0.1
done

# The test CA, standing in for Let's Encrypt.
"$VG_OPENSSL" req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=vgd test CA" \
	-addext basicConstraints=critical,CA:TRUE -addext keyUsage=keyCertSign \
	-days 2 -keyout "$T/ca.key" -out "$T/ca.crt" 2>/dev/null

# A doc block made runnable here. The certbot command (with its
# continuation lines) becomes the test CA issuing a certificate from the
# --csr file into the --fullchain-path file.
runnable() {
	awk -v ca="$T/ca" -v o="$VG_OPENSSL" '
		function issue(cmd,   n, w, i, csr, out) {
			n = split(cmd, w, /[ \t]+/)
			for (i = 1; i < n; i++) {
				if (w[i] == "--csr") csr = w[i + 1]
				if (w[i] == "--fullchain-path") out = w[i + 1]
			}
			print o " x509 -req -in " csr " -CA " ca ".crt -CAkey " ca ".key -CAcreateserial" \
				" -days 2 -copy_extensions copy -out " out " 2>/dev/null"
		}
		cont { line = line " " $0; if ($0 !~ /\\$/) { cont = 0; gsub(/\\/, "", line); issue(line) }; next }
		/^certbot certonly/ { line = $0; if ($0 ~ /\\$/) cont = 1; else issue(line); next }
		{ print }' |
		sed -e "s|/etc/vgd/|$E/|g" -e "s|/etc/ssl/|$T/etc/ssl/|g" -e "s|/run/nginx.pid|$T/run/nginx.pid|g" \
			-e "s|^vgctl genkey \(.*\)$|\"\$VG_VGCTL\" --socket $T/vgd.sock genkey \1 --config $E/vgd.conf --key-dir $E/live-keys|" \
			-e "s|^vgctl |\"\$VG_VGCTL\" --socket $T/vgd.sock |" \
			-e "s|nginx -t|\"\$VG_NGINX\" -p $T -c $T/nginx.conf -t|" \
			-e "s|systemctl reload nginx|kill -HUP \$(cat $T/run/nginx.pid)|" \
			-e "s|systemctl reload vgd|kill -HUP $VGD_PID|"
}
export VG_VGCTL VG_NGINX VGD_RELOAD="kill -HUP $VGD_PID"

doc_block '## Keys born in vgd' sh | runnable >"$T/first.sh"
doc_block '### Rotating the key' sh | runnable >"$T/rotate.sh"
grep -q 'x509 -req' "$T/first.sh" && grep -q 'x509 -req' "$T/rotate.sh" ||
	fail "no certbot command found in the page's blocks"
t_start=$(now_ms)
sh -eu "$T/first.sh" >"$T/block.out" 2>&1 || fail "the first key's block failed"
t_block=$(now_ms)

# nginx: the page's site block with this test's port and paths.
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
site=$(doc_block '## 6. nginx' nginx | sed -e "s|listen 443 ssl;|listen 127.0.0.1:$PORT ssl;|" \
	-e "s|/etc/vgd/|$E/|g" -e "s|/etc/ssl/|$T/etc/ssl/|g" -e "s|root /var/www/html;|root $T/www;|")
echo "$site" | grep -q "127.0.0.1:$PORT" || fail "no nginx block in the page"
cat >"$T/nginx.conf" <<NGX
user www-data;
worker_processes 2;
pid $T/run/nginx.pid;
error_log $T/nginx-error.log info;
env OPENSSL_CONF;
events { worker_connections 256; }
http {
 access_log off;
 client_body_temp_path $T/nginx-body;
 proxy_temp_path $T/nginx-proxy;
 fastcgi_temp_path $T/nginx-fcgi;
 uwsgi_temp_path $T/nginx-uwsgi;
 scgi_temp_path $T/nginx-scgi;
$site
}
NGX
OPENSSL_CONF=$E/openssl.cnf "$VG_NGINX" -p "$T" -c "$T/nginx.conf" -g 'daemon off;' >"$T/nginx.out" 2>&1 &
NGINX_PID=$!
i=0
until [ -s "$T/run/nginx.pid" ] && "$VG_OPENSSL" s_client -connect "127.0.0.1:$PORT" -servername example.org \
	</dev/null >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 500 ] && kill -0 "$NGINX_PID" 2>/dev/null || fail "nginx did not start"
	sleep 0.02
done

t_nginx=$(now_ms)
served_key() {
	"$VG_OPENSSL" s_client -tls1_3 -connect "127.0.0.1:$PORT" -servername example.org -CAfile "$T/ca.crt" \
		-verify_return_error </dev/null 2>/dev/null | "$VG_OPENSSL" x509 -pubkey -noout
}
"$VG_VGCTL" --socket "$T/vgd.sock" pubkey example.org-1 >"$T/first.pub"
served_key | cmp -s - "$T/first.pub" || fail "nginx does not serve example.org-1's key"
if [ -n "${VG_KEYLIFE_TIMING:-}" ]; then
	t_hs=$(now_ms)
	echo "CPU:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
	echo "new ECDSA P-256 key to its first TLS 1.3 handshake through nginx (doc/nginx.md blocks):"
	awk -v a="$t_start" -v b="$t_block" -v c="$t_nginx" -v d="$t_hs" 'BEGIN {
		printf "  genkey + csr + test CA + key reference  %8.1f ms\n", b - a
		printf "  nginx start, first handshake listening   %8.1f ms\n", c - b
		printf "  TLS 1.3 handshake showing the new key    %8.1f ms\n", d - c
		printf "  total                                    %8.1f ms\n", d - a }'
	exit 0
fi

# Handshakes without pause for the whole rotation.
"$VG_HSLOOP" "$PORT" example.org "$T/ca.crt" "hello from a key born in vgd" 4 "$T/stop" >"$T/load.out" 2>&1 &
LOAD_PID=$!
sleep 1
sh -eu "$T/rotate.sh" >>"$T/block.out" 2>&1 || fail "the rotation block failed"
sleep 1
touch "$T/stop"
wait "$LOAD_PID" && load=0 || load=$?
LOAD_PID=""
cat "$T/load.out"
[ "$load" -eq 0 ] || fail "handshakes failed during the rotation: $(cat "$T/load.out")"

served_key | cmp -s - "$E/refs/example.org-2.pub" || fail "nginx does not serve example.org-2's key"
if "$VG_VGCTL" --socket "$T/vgd.sock" keys | grep -q '^example.org-1 '; then
	fail "vgd still has the retired key"
fi
[ ! -e "$E/live-keys/example.org-1.pem" ] || fail "the retired key's file is still there"
echo "ok: rotation under load: $(cat "$T/load.out")"
