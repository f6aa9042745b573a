#!/bin/sh
# minbase.sh SRCDIR: the administrator's path on a machine that has nothing,
# proven in the tree (issue 36). Slow (a debootstrap, about 300 packages
# installed, the whole default suite and a package build): the `fresh`
# suite, which the default test setup excludes.
#
#  1. debootstrap --variant=minbase bookworm: one pristine minimal Debian 12,
#     copied for each root below so that every root starts equally fresh;
#  2. root 1 gets a clean `git clone` of SRCDIR (committed work only, the
#     way a newcomer gets it; no ../shared: the tree carries its vectors);
#     as a plain user `./run test` prints the apt-get line and exits 2;
#  3. as root, the README's first command, `./run demo`: it must succeed and
#     install none of the TLS servers or test tools (a plain user's
#     `./run test` still asks for them, naming the group);
#  4. as root, `./run test`: 0 failures; nginx and haproxy came without
#     being enabled, and ./run left no policy-rc.d behind;
#  5. the Debian packages built in root 1 (dpkg-buildpackage from another
#     clean clone), then installed with apt in root 2, a second fresh root,
#     where debian/smoke-test.sh runs against the installed vgd and vgctl.
#
# Every root is entered with chroot inside a private mount namespace
# (unshare), so its /proc, /sys, /dev, /dev/pts and /run mounts cannot reach
# the host and vanish with the namespace even if this script is killed; a
# trap also unmounts them and removes the roots. Logs stay in
# $VG_FRESH_DIR/vgd-fresh-logs.* (default /var/tmp) and their tails are
# printed. VG_FRESH_MIRROR chooses the Debian mirror.
# Needs root and debootstrap (apt-get install debootstrap); else SKIP (77).
set -eu
SRC=$(cd "$1" && pwd)
MIRROR=${VG_FRESH_MIRROR:-http://deb.debian.org/debian}
BASEDIR=${VG_FRESH_DIR:-/var/tmp}

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: needs root (debootstrap, chroot, mounts)"
	exit 77
fi
for tool in debootstrap unshare git; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
git -C "$SRC" rev-parse --verify -q HEAD >/dev/null ||
	{ echo "SKIP: $SRC is not a git checkout (the test clones it)"; exit 77; }

# Everything below runs in a private mount namespace.
if [ -z "${VG_FRESH_IN_NS:-}" ]; then
	VG_FRESH_IN_NS=1 exec unshare --mount --propagation private sh "$0" "$@"
fi

W=$(mktemp -d "$BASEDIR/vgd-fresh.XXXXXX")
LOGS=$(mktemp -d "$BASEDIR/vgd-fresh-logs.XXXXXX")
chmod 755 "$W"
FAILS=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
note() { printf '\n==> %s\n' "$*"; }

MOUNTED=""
mount_root() { # mount_root ROOT: what a chrooted build and test run need
	r=$1
	# The root a mount point of its own, as / is on a real machine: the
	# tests that unshare a mount namespace (the haproxy test) change the
	# propagation of /, which fails with EINVAL on a plain directory.
	mount --bind "$r" "$r"
	mount -t proc proc "$r/proc"
	mount --rbind /sys "$r/sys"
	mount -t tmpfs -o mode=755,nosuid dev "$r/dev"
	for n in null zero full random urandom tty; do
		touch "$r/dev/$n"
		mount --bind "/dev/$n" "$r/dev/$n"
	done
	mkdir -p "$r/dev/pts" "$r/dev/shm"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620,gid=5 devpts "$r/dev/pts"
	ln -s pts/ptmx "$r/dev/ptmx"
	mount -t tmpfs -o mode=1777,nosuid,nodev shm "$r/dev/shm"
	ln -s /proc/self/fd "$r/dev/fd"
	ln -s /proc/self/fd/0 "$r/dev/stdin"
	ln -s /proc/self/fd/1 "$r/dev/stdout"
	ln -s /proc/self/fd/2 "$r/dev/stderr"
	mount -t tmpfs -o mode=755,nosuid,nodev run "$r/run"
	mkdir -p "$r/run/lock"
	chmod 1777 "$r/run/lock"
	MOUNTED="$r $MOUNTED"
	cp /etc/resolv.conf "$r/etc/resolv.conf"
}
cleanup() {
	for r in $MOUNTED; do
		# Processes a failed test left behind would keep the mounts busy.
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2>/dev/null)" = "$r" ] && kill -9 "${p#/proc/}" 2>/dev/null || true
		done
		umount -R "$r" 2>/dev/null || umount -R -l "$r" 2>/dev/null || true
	done
	# Only a root with nothing mounted in it is removed.
	if ! grep -q " $W/" /proc/self/mounts; then
		rm -rf "$W"
	else
		echo "note: mounts remain under $W; not removed"
	fi
	echo "logs: $LOGS"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# in ROOT [--user NAME] CMD: run CMD with sh -c in ROOT, with a clean
# environment as a login would give.
in_root() {
	r=$1; shift
	spec=""; home=/root
	if [ "$1" = --user ]; then
		spec="--userspec=$2:$2"; home=/home/$2; shift 2
	fi
	chroot $spec "$r" /usr/bin/env -i HOME="$home" LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin sh -c "cd && $1"
}
# logged NAME CMD...: run, output to $LOGS/NAME.log; status returned.
logged() {
	name=$1; shift
	rc=0
	"$@" >"$LOGS/$name.log" 2>&1 || rc=$?
	return $rc
}
tail_of() { tail -n "${2:-25}" "$LOGS/$1.log" | sed "s/^/  $1: /"; }

# --- 1. the pristine root -------------------------------------------------
note "debootstrap --variant=minbase bookworm ($MIRROR)"
start=$(date +%s)
logged debootstrap debootstrap --variant=minbase bookworm "$W/base" "$MIRROR" ||
	{ tail_of debootstrap; fail "debootstrap"; exit 1; }
ok "minimal Debian 12 in $(($(date +%s) - start)) s, $(chroot "$W/base" dpkg-query -W | wc -l) packages"
cp -a "$W/base" "$W/root1"

# --- 2. a newcomer's clone; the hint to a plain user ------------------------
R=$W/root1
mount_root "$R"
git clone -q "$SRC" "$R/root/vgd"
chroot "$R" useradd -m -s /bin/sh fresh
git clone -q "$SRC" "$R/home/fresh/vgd"
chroot "$R" chown -R fresh:fresh /home/fresh/vgd
ok "cloned $(git -C "$SRC" log -1 --format='%h %s' | cut -c1-72)"

note "as a plain user on the fresh root: ./run test"
rc=0
logged hint1 in_root "$R" --user fresh "cd vgd && ./run test" || rc=$?
tail_of hint1 12
[ "$rc" -eq 2 ] && ok "./run test as a plain user exits 2" || fail "./run test as a plain user exited $rc, not 2"
grep -q "^  apt-get install -y .*build-essential" "$LOGS/hint1.log" &&
	ok "the hint names the apt-get line (with build-essential)" || fail "no apt-get line in the hint"

# --- 3. ./run demo as root ---------------------------------------------------
note "as root: ./run demo"
start=$(date +%s)
rc=0
logged demo in_root "$R" "cd vgd && ./run demo" || rc=$?
tail_of demo 30
[ "$rc" -eq 0 ] && ok "./run demo succeeded in $(($(date +%s) - start)) s" || fail "./run demo exited $rc"
grep -q "^==> ./run demo installs these Debian packages" "$LOGS/demo.log" &&
	ok "./run demo said what it installs before installing" || fail "./run demo did not list what it installs"
for p in nginx-light haproxy valgrind clang lintian; do
	chroot "$R" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" &&
		fail "./run demo installed $p"
done
ok "after ./run demo: $(chroot "$R" dpkg-query -W | wc -l) packages, $(chroot "$R" du -sxm /usr | cut -f1) MB in /usr"
rc=0
logged hint2 in_root "$R" --user fresh "cd vgd && ./run test" || rc=$?
[ "$rc" -eq 2 ] && grep -q "^  TLS servers, .*nginx-light" "$LOGS/hint2.log" &&
	ok "after demo a plain user's ./run test still asks for the TLS servers (exit 2)" ||
	{ tail_of hint2 12; fail "after demo, a plain user's ./run test: exit $rc"; }

# --- 4. ./run test as root ---------------------------------------------------
note "as root: ./run test"
start=$(date +%s)
rc=0
logged test in_root "$R" "cd vgd && ./run test" || rc=$?
sed -n '/^==> .* installs these Debian packages/,/^==> services/p' "$LOGS/test.log" | sed 's/^/  test: /'
# Each failure once (meson repeats them in its summary), then the counts.
grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT|ERROR)' "$LOGS/test.log" | awk '!seen[$0]++' |
	sed 's/^/  test: /' || true
tail_of test 9
[ "$rc" -eq 0 ] && ok "./run test: 0 failures, in $(($(date +%s) - start)) s" || fail "./run test exited $rc"
[ ! -e "$R/usr/sbin/policy-rc.d" ] && ok "no policy-rc.d left behind" || fail "./run left /usr/sbin/policy-rc.d"
for s in nginx haproxy; do
	if ls "$R"/etc/systemd/system/*.wants/$s.service "$R"/etc/rc[2-5].d/S*$s >/dev/null 2>&1; then
		fail "$s is enabled at boot after ./run test"
	else
		ok "$s installed, not enabled at boot"
	fi
done

# --- 5. the packages, installed with apt in a second fresh root --------------
note "dpkg-buildpackage in root 1, from a clean clone"
git clone -q "$SRC" "$R/root/pkg/vgd"
start=$(date +%s)
rc=0
logged pkgbuild in_root "$R" "cd pkg/vgd && DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -b -us -uc" || rc=$?
[ "$rc" -eq 0 ] && ok "packages built in $(($(date +%s) - start)) s: $(cd "$R/root/pkg" && echo *.deb)" ||
	{ tail_of pkgbuild 40; fail "dpkg-buildpackage exited $rc"; exit 1; }

cp -a "$W/base" "$W/root2"
R2=$W/root2
mount_root "$R2"
mkdir "$R2/tmp/debs"
# What an admin installs: the packages, not their debug symbols.
for d in "$R"/root/pkg/*.deb; do
	case "$d" in *-dbgsym_*) ;; *) cp "$d" "$R2/tmp/debs/" ;; esac
done
note "root 2: apt-get install the packages (and openssl, which the smoke test uses)"
rc=0
logged install2 in_root "$R2" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/debs/*.deb openssl" || rc=$?
tail_of install2 12
[ "$rc" -eq 0 ] && ok "apt installed $(cd "$R2/tmp/debs" && ls | sed 's/_.*//' | tr '\n' ' ')" ||
	{ fail "apt-get install of the packages exited $rc"; exit 1; }
chroot "$R2" getent passwd vgd >/dev/null && chroot "$R2" getent group vgd-clients >/dev/null &&
	ok "accounts vgd and group vgd-clients exist" || fail "the package did not create its accounts"
[ -L "$R2/etc/systemd/system/sockets.target.wants/vgd.socket" ] && ok "vgd.socket enabled" ||
	fail "vgd.socket is not enabled"
chroot "$R2" vgd --check-config -c /etc/vgd/vgd.conf >"$LOGS/check2.log" 2>&1 &&
	ok "the installed vgd checks /etc/vgd/vgd.conf: $(cat "$LOGS/check2.log")" ||
	{ tail_of check2; fail "vgd --check-config on the shipped config"; }

# debian/smoke-test.sh is the build's test: it takes a build directory and
# reads debian/vgd.conf from the current one. Point both at what apt put
# on the system.
note "root 2: debian/smoke-test.sh against the installed vgd and vgctl"
mkdir -p "$R2/root/smoke/debian" "$R2/root/smoke/b/daemon" "$R2/root/smoke/b/client"
cp "$R/root/pkg/vgd/debian/smoke-test.sh" "$R2/root/smoke/"
ln -s /etc/vgd/vgd.conf "$R2/root/smoke/debian/vgd.conf"
ln -s /usr/sbin/vgd "$R2/root/smoke/b/daemon/vgd"
ln -s /usr/bin/vgctl "$R2/root/smoke/b/client/vgctl"
rc=0
logged smoke2 in_root "$R2" "cd smoke && sh smoke-test.sh /root/smoke/b" || rc=$?
tail_of smoke2 6
[ "$rc" -eq 0 ] && grep -q '^smoke-test: ok' "$LOGS/smoke2.log" &&
	ok "debian/smoke-test.sh passed on the installed packages" || fail "smoke test exited $rc"

echo
if [ "$FAILS" -ne 0 ]; then
	echo "$FAILS check(s) failed"
	exit 1
fi
echo "fresh machine: all checks passed"
