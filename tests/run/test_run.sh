#!/bin/sh
# test_run.sh SRCDIR: checks of ./run, the README's two commands.
#  1. every program the systemd units run by absolute path comes from a
#     package that ./run installs (a minimal Debian lacks /bin/kill, from
#     procps, which ExecReload= needs);
#  2. run as an unprivileged user with a package missing, ./run prints
#     the apt-get command to run as root (no sudo: a minimal Debian has
#     none) and exits 2.
set -eu
src=$1
fail=0
pkgs=$(sed -n '/^PKGS="/,/"$/p' "$src/run" | tr -d '"\\' | sed 's/^PKGS=//')
for bin in $(sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\(\/[^ ]*\).*/\1/p' "$src"/systemd/*.in | sort -u); do
	case "$bin" in @*) continue ;; esac
	pkg=$(dpkg -S "$(readlink -f "$bin")" 2>/dev/null | sed -n '1s/:.*//p')
	[ -n "$pkg" ] || pkg=$(dpkg -S "$bin" 2>/dev/null | sed -n '1s/:.*//p')
	if [ -z "$pkg" ]; then
		echo "FAIL: no package provides $bin (used by systemd/)"
		fail=1
	elif ! echo " $pkgs " | tr '\n' ' ' | grep -q " $pkg "; then
		echo "FAIL: $bin comes from package $pkg, which ./run does not install"
		fail=1
	else
		echo "ok: $bin ($pkg) is installed by ./run"
	fi
done

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	# A copy of the script in a directory any user can read: the checkout
	# itself may be under root's home.
	t=$(mktemp -d /tmp/vgd-run-test.XXXXXX)
	trap 'rm -rf "$t"' EXIT
	cp "$src/run" "$t/run"
	chmod 755 "$t" "$t/run"
	rc=0
	(cd /tmp && VG_RUN_EXTRA_PKGS=vgd-no-such-package setpriv --reuid=nobody \
		--regid=nogroup --clear-groups sh "$t/run" test) >"$t/out" 2>&1 || rc=$?
	if [ "$rc" -ne 2 ]; then
		echo "FAIL: ./run as nobody with a missing package exited $rc, not 2"
		fail=1
	fi
	if ! grep -q "^  apt-get install -y.* vgd-no-such-package" "$t/out"; then
		echo "FAIL: ./run did not print the apt-get line for the missing package"
		fail=1
	fi
	if grep -q sudo "$t/out"; then
		echo "FAIL: ./run's hint uses sudo"
		fail=1
	fi
	sed 's/^/  run said: /' "$t/out"
fi
exit $fail
