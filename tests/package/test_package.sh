#!/bin/sh
# test_package.sh SRCDIR: build the Debian packages and check them without
# installing anything on this machine.
#  1. dpkg-buildpackage -b -us -uc on a copy of the tree (the source tree
#     stays clean), with only the declared Build-Depends
#     (dpkg-checkbuilddeps), then lintian: no errors;
#  2. dpkg-deb -c / -I: every file where Debian and systemd expect it
#     (units in /usr/lib/systemd/system, the provider in OpenSSL's modules
#     directory, the library with its SONAME link, the symbols file listing
#     exactly the library's exports, /etc/vgd/vgd.conf a conffile);
#     README.md and doc/*.md where the links of README.md find them;
#  3. systemd-analyze verify on the packaged units;
#  4. the packages extracted (dpkg -x) into a throwaway root: the
#     maintainer script applied there with DPKG_ROOT (accounts created,
#     vgd.socket enabled, vgd.service not), the packaged vgd run on a test
#     config, signing through the packaged vgctl, through a program built
#     only with the packaged `pkg-config --cflags --libs vgclient`, and
#     through the packaged OpenSSL provider configured as README.Debian says.
# DEB_BUILD_OPTIONS may be set by the caller (the default is parallel=2).
set -eu
SRC=$(cd "$1" && pwd)
T=$(mktemp -d /tmp/vgd-package.XXXXXX)
chmod 755 "$T"
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
die() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }

MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
VERSION=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)

# --- 1. build -------------------------------------------------------------
mkdir "$T/src"
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# What is in the work tree now, committed or not, minus ignored files.
	(cd "$SRC" && git ls-files -z -co --exclude-standard |
		xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$T/src"
else
	(cd "$SRC" && tar -cf - --exclude='./build*' --exclude='./obj-*' --exclude=./.git .) |
		tar -xf - -C "$T/src"
fi
(cd "$T/src" && dpkg-checkbuilddeps) || die "Build-Depends not installed (./run installs them)"
start=$(date +%s)
(cd "$T/src" && DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-parallel=2} \
	dpkg-buildpackage -b -us -uc) >"$T/build.log" 2>&1 ||
	{ tail -n 60 "$T/build.log"; die "dpkg-buildpackage failed"; }
echo "dpkg-buildpackage took $(($(date +%s) - start)) s"
grep -q '^smoke-test: ok' "$T/build.log" && ok "the build's smoke test ran"
[ -z "$(cd "$SRC" && git status --porcelain --ignored=no debian 2>/dev/null)" ] ||
	echo "note: $SRC/debian has uncommitted changes (tested as they are)"
DEB() { echo "$T/${1}_${VERSION}_${ARCH}.deb"; }
for p in vgd libvgclient2 libvgclient-dev vgd-openssl-provider; do
	[ -f "$(DEB $p)" ] || die "package $p was not built"
done

if command -v lintian >/dev/null; then
	lintian -I --pedantic --tag-display-limit 0 "$T/vgd_${VERSION}_${ARCH}.changes" >"$T/lintian.log" 2>&1 || true
	sed 's/^/  lintian: /' "$T/lintian.log"
	if grep -q '^E: ' "$T/lintian.log"; then fail "lintian reports errors"; else ok "lintian: no errors"; fi
else
	fail "lintian is not installed (./run installs it)"
fi

# --- 2. file locations ------------------------------------------------------
contents() { dpkg-deb -c "$(DEB "$1")" | awk '{ print $6 }' | sed 's|^\./|/|'; }
has() { # has PACKAGE PATH...
	p=$1; shift
	for f in "$@"; do
		contents "$p" | grep -qx "$f" && ok "$p ships $f" || fail "$p does not ship $f"
	done
}
MODDIR=$(openssl version -m | sed -n 's/^MODULESDIR: "\(.*\)"$/\1/p')
[ -n "$MODDIR" ] || die "openssl version -m names no modules directory"
has vgd /usr/sbin/vgd /usr/bin/vgctl /usr/lib/systemd/system/vgd.service \
	/usr/lib/systemd/system/vgd.socket /usr/lib/sysusers.d/vgd.conf /usr/lib/tmpfiles.d/vgd.conf \
	/etc/vgd/vgd.conf /usr/share/doc/vgd/examples/vgd.conf.example /usr/share/doc/vgd/README.md \
	/usr/share/vgd/certbot-deploy-hook \
	/usr/share/man/man8/vgd.8.gz /usr/share/man/man1/vgctl.1.gz /usr/share/man/man5/vgd.conf.5.gz
has libvgclient2 "/usr/lib/$MA/libvgclient.so.2"
has libvgclient-dev /usr/include/vgclient.h "/usr/lib/$MA/libvgclient.a" "/usr/lib/$MA/libvgclient.so" \
	"/usr/lib/$MA/pkgconfig/vgclient.pc" /usr/share/man/man3/libvgclient.3.gz
has vgd-openssl-provider "$MODDIR/vgd.so"
for p in vgd libvgclient2 libvgclient-dev vgd-openssl-provider; do
	contents "$p" | grep -E '^/lib/|^/etc/vgd/keys|^/usr/local/|vgd\.conf\.example$' |
		grep -v '^/usr/share/doc/vgd/examples/' | sed "s/^/unexpected in $p: /" | grep . &&
		fail "$p ships files outside Debian's locations"
done
dpkg-deb --ctrl-tarfile "$(DEB vgd)" | tar -xOf - ./conffiles 2>/dev/null | grep -qx /etc/vgd/vgd.conf &&
	ok "/etc/vgd/vgd.conf is a conffile" || fail "/etc/vgd/vgd.conf is not a conffile"

# --- 4 (before 3: verify uses the extracted tree). The throwaway root. -----
R="$T/root"
mkdir -p "$R/etc"
for p in vgd libvgclient2 libvgclient-dev vgd-openssl-provider; do dpkg -x "$(DEB $p)" "$R"; done
LIB="$R/usr/lib/$MA"
[ "$(readlink "$LIB/libvgclient.so.2")" = libvgclient.so.2.0.0 ] && [ -f "$LIB/libvgclient.so.2.0.0" ] &&
	ok "libvgclient.so.2 -> libvgclient.so.2.0.0" || fail "libvgclient.so.2 is not a link to the library"
[ "$(readlink "$LIB/libvgclient.so")" = libvgclient.so.2 ] &&
	ok "libvgclient.so -> libvgclient.so.2 (dev)" || fail "libvgclient.so (dev link)"
readelf -d "$LIB/libvgclient.so.2.0.0" | grep -q 'SONAME.*\[libvgclient\.so\.2\]' &&
	ok "SONAME libvgclient.so.2" || fail "SONAME is not libvgclient.so.2"

# The documents: README.md and every doc/*.md of the tree, uncompressed and
# laid out as in the tree, so that every relative link in them resolves
# where they are installed, except the links README.md says lead into the
# source tree only (client/, protocol/, bench/, daemon/, CONTRIBUTING.md,
# NEWS). A link to a manual page's source (doc/man/) fails: those are
# installed as manual pages.
DOC=/usr/share/doc/vgd
for f in "$SRC"/doc/*.md; do
	has vgd "$DOC/doc/${f##*/}"
done
links=0
for md in "$R$DOC/README.md" "$R$DOC"/doc/*.md; do
	dir=$(dirname "$md")
	for l in $(grep -o '\]([^)]*)' "$md" | sed 's/^\](//; s/)$//; s/#.*//' | sort -u); do
		case "$l" in '' | *://* | mailto:*) continue ;; esac
		t=$(realpath -m "$dir/$l")
		case "${t#"$R$DOC"/}" in
		client/* | protocol/* | bench/* | daemon/* | CONTRIBUTING.md | NEWS) continue ;;
		esac
		links=$((links + 1))
		[ -f "$t" ] || fail "${md#"$R"}: link $l does not resolve where it is installed"
	done
done
[ "$links" -gt 10 ] && ok "the $links links of the installed README.md and doc/*.md resolve" ||
	fail "only $links links checked in the installed documents"

# The symbols file names every exported symbol (with its version) and
# nothing else; shlibs dependencies are computed from it.
mkdir "$T/ctl"
dpkg-deb -e "$(DEB libvgclient2)" "$T/ctl/lib"
if [ -f "$T/ctl/lib/symbols" ]; then
	head -n1 "$T/ctl/lib/symbols" | grep -q '^libvgclient\.so\.2 libvgclient2 ' &&
		ok "symbols file for libvgclient.so.2" || fail "symbols file header: $(head -n1 "$T/ctl/lib/symbols")"
	sed -n 's/^ \([^ ]*\) .*/\1/p' "$T/ctl/lib/symbols" | sort >"$T/sym.pkg"
	# nm prints the version node itself as VGCLIENT_1; dpkg-gensymbols
	# as VGCLIENT_1@VGCLIENT_1.
	nm -D --defined-only "$LIB/libvgclient.so.2.0.0" | awk '{ print $3 }' |
		sed 's/@@/@/; /@/!s/.*/&@&/' | sort >"$T/sym.lib"
	if cmp -s "$T/sym.pkg" "$T/sym.lib" && [ -s "$T/sym.lib" ]; then
		ok "the symbols file lists the $(wc -l <"$T/sym.lib") exported symbols"
	else
		fail "symbols file and the library's exports differ:"; diff "$T/sym.pkg" "$T/sym.lib" || true
	fi
else
	fail "libvgclient2 has no symbols file"
fi
# Every program the units run that vgd does not ship (ExecReload=/bin/kill)
# comes from a package vgd depends on.
dpkg-deb --fsys-tarfile "$(DEB vgd)" | tar -xOf - ./usr/lib/systemd/system/vgd.service |
	sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\(\/[^ ]*\).*/\1/p' | sort -u >"$T/execs"
while read -r bin; do
	case "$bin" in /usr/sbin/vgd) continue ;; esac
	pkg=$(dpkg -S "$(readlink -f "$bin")" 2>/dev/null | sed -n '1s/:.*//p')
	[ -n "$pkg" ] || pkg=$(dpkg -S "$bin" 2>/dev/null | sed -n '1s/:.*//p')
	if [ -z "$pkg" ]; then
		fail "no installed package provides $bin (vgd.service runs it)"
	elif dpkg-deb -f "$(DEB vgd)" Depends | tr ',' '\n' | grep -q "^ *$pkg\( \|$\)"; then
		ok "vgd depends on $pkg ($bin, which vgd.service runs)"
	else
		fail "vgd.service runs $bin from $pkg, which vgd does not depend on"
	fi
done <"$T/execs"
dpkg-deb -f "$(DEB vgd)" Depends | grep -q "libvgclient2 (>= " &&
	ok "vgd depends on libvgclient2 (from the symbols file)" || fail "vgd's Depends lacks libvgclient2"

# --- 3. systemd-analyze verify on the packaged units ------------------------
if command -v systemd-analyze >/dev/null; then
	# verify wants ExecStart='s binary to exist: point it at the packaged one.
	grep -q '^ExecStart=/usr/sbin/vgd ' "$R/usr/lib/systemd/system/vgd.service" ||
		fail "ExecStart is not /usr/sbin/vgd"
	mkdir "$T/units"
	sed "s|^ExecStart=/usr/sbin/vgd |ExecStart=$R/usr/sbin/vgd |" \
		"$R/usr/lib/systemd/system/vgd.service" >"$T/units/vgd.service"
	cp "$R/usr/lib/systemd/system/vgd.socket" "$T/units/"
	out=$(systemd-analyze verify --man=no --generators=no "$T/units/vgd.service" "$T/units/vgd.socket" 2>&1) &&
		[ -z "$out" ] && ok "systemd-analyze verify: clean" ||
		{ echo "$out"; fail "systemd-analyze verify"; }
else
	fail "systemd-analyze is not installed"
fi

# The maintainer script in the throwaway root (DPKG_ROOT): accounts from
# sysusers.d, the key directory from tmpfiles.d, vgd.socket enabled,
# vgd.service not. Only without a running systemd: with one, the script
# would also start vgd.socket on this machine.
dpkg-deb -e "$(DEB vgd)" "$T/ctl/vgd"
if [ -d /run/systemd/system ]; then
	echo "skip: a systemd is running here; the postinst is not run"
elif [ "$(id -u)" -ne 0 ]; then
	echo "skip: not root; the postinst is not run"
else
	DPKG_ROOT="$R" DPKG_MAINTSCRIPT_PACKAGE=vgd DPKG_MAINTSCRIPT_NAME=postinst \
		sh "$T/ctl/vgd/postinst" configure >"$T/postinst.log" 2>&1 ||
		{ cat "$T/postinst.log"; fail "postinst configure in DPKG_ROOT"; }
	for u in $(sed -n 's/^u \([^ ]*\).*/\1/p' "$R/usr/lib/sysusers.d/vgd.conf"); do
		grep -q "^$u:" "$R/etc/passwd" && ok "postinst created user $u" || fail "no user $u"
	done
	grep -q '^vgd-clients:' "$R/etc/group" && ok "postinst created group vgd-clients" ||
		fail "no group vgd-clients"
	[ "$(stat -c '%a %U' "$R/etc/vgd/keys" 2>/dev/null)" = "700 root" ] &&
		ok "/etc/vgd/keys is 0700 root" || fail "/etc/vgd/keys: $(stat -c '%a %U' "$R/etc/vgd/keys" 2>&1)"
	[ -L "$R/etc/systemd/system/sockets.target.wants/vgd.socket" ] &&
		ok "vgd.socket is enabled" || fail "vgd.socket is not enabled"
	[ ! -e "$R/etc/systemd/system/multi-user.target.wants/vgd.service" ] &&
		ok "vgd.service is not enabled (socket-activated)" || fail "vgd.service is enabled"
fi

# The packaged vgd, on a test config with a fresh key.
"$R/usr/sbin/vgd" --check-config -c "$R/etc/vgd/vgd.conf" | grep -q ' 0 key(s)' &&
	ok "the shipped /etc/vgd/vgd.conf loads, with no keys" || fail "the shipped vgd.conf does not load"
W="$T/run"
mkdir "$W"
openssl genpkey -algorithm ed25519 -out "$W/ed.pem" 2>/dev/null
chmod 600 "$W/ed.pem"
openssl pkey -in "$W/ed.pem" -pubout -out "$W/ed.pub"
printf 'socket = %s/s\nkeyholders = 1\n[key ed]\nfile = ed.pem\nallow = sign\n' "$W" >"$W/vgd.conf"
run=
if [ "$(id -u)" -eq 0 ]; then
	# As root vgd changes users; a scratch root's accounts are not this
	# machine's. nobody is enough for a test.
	chown -R nobody:nogroup "$W"
	run="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
$run "$R/usr/sbin/vgd" -c "$W/vgd.conf" 2>"$T/vgd.log" &
pid=$!
i=0
until [ -S "$W/s" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat "$T/vgd.log"; die "the packaged vgd did not start"; }
	sleep 0.1
done
printf 'signed through the package' >"$T/msg"
export LD_LIBRARY_PATH="$LIB"
"$R/usr/bin/vgctl" --socket "$W/s" sign ed --alg ed25519 --in "$T/msg" --out "$T/sig1" &&
	openssl pkeyutl -verify -pubin -inkey "$W/ed.pub" -rawin -in "$T/msg" -sigfile "$T/sig1" >/dev/null &&
	ok "signed through the packaged vgctl" || fail "packaged vgctl sign"
ldd "$R/usr/bin/vgctl" | grep -q "$LIB/libvgclient.so.2" || fail "vgctl did not load the packaged library"

# A program built only from the packaged pkg-config file.
cat >"$T/app.c" <<'C'
#include <stdio.h>
#include <vgclient.h>
int main(int argc, char **argv)
{
	vg_client *c = vg_client_new(argc > 1 ? argv[1] : NULL);
	uint8_t sig[64];
	size_t sl = 0;
	FILE *f;
	int r = c ? vg_client_sign(c, "ed", VGC_ALG_ED25519, "signed through the package", 26,
				   sig, sizeof(sig), &sl) : -99;
	if (r != 0 || sl != 64 || !(f = fopen(argv[2], "wb"))) {
		fprintf(stderr, "app: %d %s\n", r, c ? vg_client_errmsg(c) : "");
		return 1;
	}
	fwrite(sig, 1, sl, f);
	fclose(f);
	vg_client_free(c);
	return 0;
}
C
PC="$LIB/pkgconfig"
flags=$(PKG_CONFIG_SYSROOT_DIR="$R" PKG_CONFIG_LIBDIR="$PC" PKG_CONFIG_PATH= \
	pkg-config --cflags --libs vgclient) || fail "pkg-config vgclient"
${CC:-cc} -std=c11 -Wall -Werror -o "$T/app" "$T/app.c" $flags || fail "cannot build with the packaged pkg-config flags ($flags)"
if [ -x "$T/app" ]; then
	"$T/app" "$W/s" "$T/sig2" &&
		openssl pkeyutl -verify -pubin -inkey "$W/ed.pub" -rawin -in "$T/msg" -sigfile "$T/sig2" >/dev/null &&
		ok "signed through a program built with pkg-config vgclient" || fail "pkg-config program"
	ldd "$T/app" | grep -q "$LIB/libvgclient.so.2" && ok "the program loads the packaged libvgclient.so.2" ||
		fail "the program does not load the packaged library"
fi
unset LD_LIBRARY_PATH

# The provider, configured as its README.Debian says (module = vgd.so, found
# in the modules directory: OPENSSL_MODULES points at the packaged one).
cat >"$T/openssl.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
vgd = vgd_sect
[default_sect]
activate = 1
[vgd_sect]
module = vgd.so
socket = $W/s
activate = 1
CNF
grep -q '^    module = vgd\.so$' "$R/usr/share/doc/vgd-openssl-provider/README.Debian" ||
	fail "README.Debian no longer says module = vgd (update this test)"
OPENSSL_CONF="$T/openssl.cnf" OPENSSL_MODULES="$R$MODDIR" \
	openssl pkey -in vgd:ed -pubout -out "$T/prov.pub" 2>"$T/prov.log" &&
	cmp -s "$T/prov.pub" "$W/ed.pub" && ok "the packaged provider reads the key's public part" ||
	{ cat "$T/prov.log"; fail "provider: public key"; }
OPENSSL_CONF="$T/openssl.cnf" OPENSSL_MODULES="$R$MODDIR" \
	openssl pkeyutl -sign -inkey vgd:ed -rawin -in "$T/msg" -out "$T/sig3" 2>>"$T/prov.log" &&
	openssl pkeyutl -verify -pubin -inkey "$W/ed.pub" -rawin -in "$T/msg" -sigfile "$T/sig3" >/dev/null &&
	ok "signed through the packaged provider" || { cat "$T/prov.log"; fail "provider: sign"; }

[ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }
echo "all package checks passed"
