#!/bin/sh
# test_install.sh: `meson install --destdir` into a temporary root, then a
# program built only from `pkg-config --cflags --libs vgclient` (shared,
# and static with --static) runs against a real vgd; checks the installed
# header, libraries, soname link, vgclient.pc and vgctl.
# usage: test_install.sh BUILD_DIR
set -eu
BUILD=$1
. "$(dirname "$0")/daemon.sh"
vgd_start
R="$T/root"
meson install -C "$BUILD" --destdir "$R" --no-rebuild --quiet --tags runtime,devel >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log" >&2; fail "meson install"; }
PC=$(find "$R" -name vgclient.pc | head -n1)
[ -n "$PC" ] || fail "no vgclient.pc installed"
export PKG_CONFIG_PATH="$(dirname "$PC")" PKG_CONFIG_SYSROOT_DIR="$R" PKG_CONFIG_LIBDIR="$(dirname "$PC")"
LIBDIR=$(dirname "$(dirname "$PC")")
[ -f "$R$(pkg-config --variable=includedir vgclient | sed "s|^$R||")/vgclient.h" ] || fail "header"
[ -f "$LIBDIR/libvgclient.a" ] || fail "static library"
[ -L "$LIBDIR/libvgclient.so" ] && [ -e "$LIBDIR/libvgclient.so.2" ] || fail "shared library links"
find "$R" -path '*bin/vgctl' -type f | grep -q . || fail "vgctl not installed"
readelf -d "$LIBDIR/libvgclient.so.2" | grep -q 'SONAME.*libvgclient.so.2' || fail "soname"

cat > "$T/app.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <vgclient.h>
int main(int argc, char **argv)
{
	if (strcmp(vg_client_strerror(VGC_E_TIMEOUT), "unknown error") == 0)
		return 3;
	vg_client *c = vg_client_new(argv[1]);
	uint8_t sig[64];
	size_t sl = 0;
	int r = c ? vg_client_sign(c, "ed", VGC_ALG_ED25519, "hi", 2, sig, sizeof(sig), &sl) : -99;
	if (r != 0 || sl != 64) {
		fprintf(stderr, "app: %d %s\n", r, c ? vg_client_errmsg(c) : "");
		return 1;
	}
	vg_client_free(c);
	(void)argc;
	printf("ok\n");
	return 0;
}
C
CC=${CC:-cc}
# shared: only what pkg-config says
$CC -std=c11 -Wall -Werror -o "$T/app" "$T/app.c" $(pkg-config --cflags --libs vgclient) ||
	fail "cannot build against the installed library"
LD_LIBRARY_PATH="$LIBDIR" "$T/app" "$SOCK" | grep -q ok || fail "shared app"
# it really uses the installed shared library
LD_LIBRARY_PATH="$LIBDIR" ldd "$T/app" | grep -q "$LIBDIR/libvgclient.so.2" || fail "not linked to the installed .so"
# static: the archive is self-contained (codec included)
$CC -std=c11 -Wall -Werror -o "$T/app-static" "$T/app.c" $(pkg-config --cflags vgclient) \
	"$LIBDIR/libvgclient.a" $(pkg-config --static --libs-only-other vgclient) ||
	fail "cannot build against libvgclient.a"
"$T/app-static" "$SOCK" | grep -q ok || fail "static app"
echo ok
