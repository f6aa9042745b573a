#!/bin/sh
# test_run.sh SRCDIR: checks of ./run, the README's two commands.
#  1. every program the systemd units run by absolute path comes from a
#     package that `./run test` installs (a minimal Debian lacks /bin/kill,
#     from procps, which ExecReload= needs);
#  2. `./run test` installs build-essential and every Build-Depends of
#     debian/control (dpkg-buildpackage refuses to start without them: the
#     package suite failed on a fresh Debian 12 for want of build-essential);
#  3. `./run demo` installs what building needs and none of the test tools,
#     TLS servers or packaging tools;
#  4. run as an unprivileged user with a package missing, ./run names the
#     group that needs it, prints the apt-get command to run as root (no
#     sudo: a minimal Debian has none) and exits 2;
#  5. run as root with a package missing (apt-get replaced by a recorder),
#     ./run says what it installs and why before calling apt-get, a
#     policy-rc.d refuses service starts while apt-get runs, and it is gone
#     afterwards, also when apt-get fails.
set -eu
src=$1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# `./run packages CMD` prints "group, why: pkg pkg ...", one line a group.
list() { sh "$src/run" packages "$1" | sed 's/^[^:]*: //' | tr '\n' ' '; }
pkgs_test=" $(list test) "
pkgs_demo=" $(list demo) "
has() { case "$1" in *" $2 "*) return 0 ;; esac; return 1; }

# 1. The units' programs.
for bin in $(sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\(\/[^ ]*\).*/\1/p' "$src"/systemd/*.in | sort -u); do
	case "$bin" in @*) continue ;; esac
	pkg=$(dpkg -S "$(readlink -f "$bin")" 2>/dev/null | sed -n '1s/:.*//p')
	[ -n "$pkg" ] || pkg=$(dpkg -S "$bin" 2>/dev/null | sed -n '1s/:.*//p')
	if [ -z "$pkg" ]; then
		bad "no package provides $bin (used by systemd/)"
	elif ! has "$pkgs_test" "$pkg"; then
		bad "$bin comes from package $pkg, which ./run test does not install"
	else
		echo "ok: $bin ($pkg) is installed by ./run test"
	fi
done

# 2. What dpkg-buildpackage checks: build-essential, then Build-Depends.
# A virtual name (debhelper-compat, dh-sequence-*) is covered when an
# installed package of the list provides it.
has "$pkgs_test" build-essential && echo "ok: ./run test installs build-essential" ||
	bad "./run test does not install build-essential (dpkg-buildpackage needs it)"
deps=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/{/^Build-Depends:/{s/^Build-Depends://;p;d};/^ /p}' \
	"$src/debian/control" | tr ',' '\n' | sed 's/[[(<].*//; s/[[:space:]]//g' | grep .)
for d in $deps; do
	if has "$pkgs_test" "$d"; then
		echo "ok: Build-Depends $d is installed by ./run test"
		continue
	fi
	by=$(dpkg-query -W -f='${Package} ${Provides}\n' 2>/dev/null |
		awk -v d="$d" '{ for (i = 2; i <= NF; i++) { n = $i; sub(/[(,].*/, "", n); if (n == d) print $1 } }' |
		while read -r p; do has "$pkgs_test" "$p" && echo "$p"; done | head -n1)
	if [ -n "$by" ]; then
		echo "ok: Build-Depends $d comes with $by, which ./run test installs"
	else
		bad "Build-Depends $d is not installed by ./run test"
	fi
done

# 3. demo: building and the demo only.
for p in nginx-light haproxy valgrind clang lintian debhelper build-essential curl; do
	has "$pkgs_demo" "$p" && bad "./run demo installs $p, which only the tests need"
done
for p in $pkgs_demo; do
	has "$pkgs_test" "$p" || bad "./run demo installs $p but ./run test does not"
done
for p in meson gcc nasm libevent-dev libseccomp-dev libcmocka-dev openssl; do
	has "$pkgs_demo" "$p" || bad "./run demo does not install $p (building or the demo needs it)"
done
[ "$fail" = 0 ] && echo "ok: ./run demo:$pkgs_demo"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "note: not root (or no setpriv): the install paths are not checked"
	exit $fail
fi

# A copy of the script in a directory any user can read: the checkout
# itself may be under root's home.
t=$(mktemp -d /tmp/vgd-run-test.XXXXXX)
trap 'rm -rf "$t"' EXIT
cp "$src/run" "$t/run"
chmod 755 "$t" "$t/run"

# 4. The hint to a user who is not root.
rc=0
(cd /tmp && VG_RUN_EXTRA_PKGS=vgd-no-such-package setpriv --reuid=nobody \
	--regid=nogroup --clear-groups sh "$t/run" test) >"$t/out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || bad "./run as nobody with a missing package exited $rc, not 2"
grep -q "^  apt-get install -y.* vgd-no-such-package" "$t/out" ||
	bad "./run did not print the apt-get line for the missing package"
grep -q "^  extra, from VG_RUN_EXTRA_PKGS: vgd-no-such-package$" "$t/out" ||
	bad "./run did not name the group of the missing package"
grep -q sudo "$t/out" && bad "./run's hint uses sudo"
sed 's/^/  run (nobody) said: /' "$t/out"

# 5. The install path as root, with apt-get replaced: the recorder notes
# what the policy-rc.d answers about starting nginx while it "installs".
cat >"$t/apt-get" <<'SH'
#!/bin/sh
echo "apt-get $*" >>"$REC"
case "$1" in update) exit 0 ;; esac
if [ -x "$VG_RUN_POLICY_RC_D" ]; then
	rc=0; "$VG_RUN_POLICY_RC_D" nginx start || rc=$?
	echo "policy-rc.d nginx start: $rc" >>"$REC"
else
	echo "policy-rc.d: none" >>"$REC"
fi
echo "E: Unable to locate package vgd-no-such-package" >&2
exit 100
SH
chmod 755 "$t/apt-get"
rc=0
(cd /tmp && REC="$t/rec" VG_RUN_APT_GET="$t/apt-get" VG_RUN_POLICY_RC_D="$t/policy-rc.d" \
	VG_RUN_EXTRA_PKGS=vgd-no-such-package sh "$t/run" demo) >"$t/out" 2>&1 || rc=$?
sed 's/^/  run (root) said: /' "$t/out"
sed 's/^/  recorded: /' "$t/rec"
[ "$rc" -ne 0 ] || bad "./run demo succeeded although apt-get failed"
grep -q "^==> ./run demo installs these Debian packages" "$t/out" ||
	bad "./run did not say what it installs before installing"
grep -q "^  extra, from VG_RUN_EXTRA_PKGS: vgd-no-such-package$" "$t/out" ||
	bad "./run did not say why it installs the missing package"
grep -q "^apt-get install .*--no-install-recommends.* vgd-no-such-package" "$t/rec" ||
	bad "./run did not install the missing package without recommends"
grep -qx "policy-rc.d nginx start: 101" "$t/rec" ||
	bad "no policy-rc.d refused service starts while apt-get ran"
[ ! -e "$t/policy-rc.d" ] || bad "./run left its policy-rc.d behind"
# The message comes before apt-get runs: the output's order.
sed -n '1,/^==> services are not started/p' "$t/out" | grep -q "installs these Debian packages" ||
	bad "./run did not print its list before preparing the install"
exit $fail
