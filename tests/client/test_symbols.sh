#!/bin/sh
# test_symbols.sh: the shared libvgclient exports only the vg_client_*
# API (version script + hidden visibility), nothing else.
# usage: test_symbols.sh path/to/libvgclient.so
set -eu
syms=$(nm -D --defined-only "$1" | awk '{print $3}' | sed 's/@.*//')
[ -n "$syms" ] || { echo "FAIL: no symbols read from $1" >&2; exit 1; }
bad=$(printf '%s\n' "$syms" | grep -v -e '^vg_client_[a-z0-9_]*$' -e '^VGCLIENT_1$' || true)
if [ -n "$bad" ]; then
	echo "FAIL: exported beyond the API:" >&2
	printf '%s\n' "$bad" >&2
	exit 1
fi
# and the API is there
for f in vg_client_new vg_client_free vg_client_process vg_client_submit_sign vg_client_sign; do
	printf '%s\n' "$syms" | grep -qx "$f" || { echo "FAIL: $f not exported" >&2; exit 1; }
done
echo "ok: $(printf '%s\n' "$syms" | grep -c '^vg_client_') vg_client_* symbols"
