# daemon.sh: sourced by the vgctl and install tests: start a real vgd on a
# temporary socket with the test keys (like tests/integration/harness.c,
# for shell). Needs VG_VGD, VG_VGCTL and VG_TEST_KEYS (set by meson).
# After vgd_start: $T is the temp dir, $SOCK the socket, $VGD_PID the pid.
# A test with a configuration of its own calls vgd_tmp, vgd_keys, writes
# $T/vgd.conf and calls vgd_run.

# vgd_tmp: the temp dir $T (removed on exit) and the socket's path $SOCK.
vgd_tmp() {
	T=$(mktemp -d /tmp/vgc-test.XXXXXX)
	trap vgd_cleanup EXIT INT TERM
	SOCK="$T/vgd.sock"
}

# vgd_keys FILE...: copy test keys into $T, private to their owner as vgd
# asks of key files.
vgd_keys() {
	for f in "$@"; do
		cp "$VG_TEST_KEYS/$f" "$T/$f"
		chmod 600 "$T/$f"
	done
}

vgd_start() {
	vgd_tmp
	vgd_keys ed25519.pem ed25519-b.pem x25519.pem rsa2048.pem ecdsa-p256.pem ecdsa-p384.pem
	# a modulus whose size is not a whole number of bytes
	openssl genrsa -out "$T/rsa2050.pem" 2050 2>/dev/null
	chmod 600 "$T/rsa2050.pem"
	cat > "$T/vgd.conf" <<CONF
socket = $SOCK
keyholders = 2
log_level = debug
front_user = nobody
[key ed]
file = ed25519.pem
allow = sign
[key ed-tls]
file = ed25519-b.pem
allow = tls13
[key x]
file = x25519.pem
allow = x25519
[key rsa]
file = rsa2048.pem
allow = sign, rsa-private
[key ec256]
file = ecdsa-p256.pem
allow = sign
[key ec384]
file = ecdsa-p384.pem
allow = sign, tls13
[key rsa2050]
file = rsa2050.pem
allow = sign
CONF
	vgd_run
}

# vgd_run: start vgd with $T/vgd.conf (its socket $SOCK) and wait until it
# answers; $VGD_PID is its pid.
vgd_run() {
	"$VG_VGD" -c "$T/vgd.conf" 2>"$T/vgd.log" &
	VGD_PID=$!
	i=0
	until "$VG_VGCTL" --socket "$SOCK" --timeout 500 ping >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 "$VGD_PID" 2>/dev/null; then
			echo "vgd did not start:" >&2
			cat "$T/vgd.log" >&2
			exit 1
		fi
		sleep 0.05
	done
}

vgd_cleanup() {
	if [ -n "${VGD_PID:-}" ]; then
		kill -TERM "$VGD_PID" 2>/dev/null || true
		wait "$VGD_PID" 2>/dev/null || true
	fi
	[ -n "${T:-}" ] && rm -rf "$T"
}

fail() {
	echo "FAIL: $*" >&2
	[ -f "$T/vgd.log" ] && tail -n 20 "$T/vgd.log" >&2
	exit 1
}

# expect CODE CMD...: run, check the exit status; the output is in $T/out
# and $T/err.
expect() {
	want=$1
	shift
	set +e
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	set -e
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want: $(cat "$T/err")"
}
