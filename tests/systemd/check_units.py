#!/usr/bin/env python3
"""check_units.py: install systemd/ into a temporary DESTDIR with
`meson install --tags systemd` and check the installed units.

  check_units.py verify   BUILDDIR VGD
                                    systemd-analyze verify on vgd.service and
                                    vgd.socket (any warning fails), ExecStart=
                                    is where meson installs VGD (the built
                                    daemon), plus the sysusers.d and
                                    tmpfiles.d entries applied to a scratch
                                    root
  check_units.py security BUILDDIR THRESHOLD
                                    systemd-analyze security --offline=yes;
                                    fails if the exposure is above THRESHOLD

No running systemd is needed: verify and --offline security load the units
into a private manager object; sysusers/tmpfiles work on --root=."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def install(builddir, destdir):
    meson = os.environ.get("MESON", "meson")
    r = run([meson, "install", "-C", builddir, "--destdir", destdir,
             "--no-rebuild", "--quiet", "--tags", "systemd"])
    if r.returncode != 0:
        sys.exit("meson install failed:\n" + r.stdout + r.stderr)


def find(destdir, pattern):
    hits = glob.glob(os.path.join(destdir, pattern), recursive=True)
    if len(hits) != 1:
        sys.exit("expected one %s in %s, found %s" % (pattern, destdir, hits))
    return hits[0]


def unit_value(text, key):
    m = re.search(r"^%s=(.*)$" % re.escape(key), text, re.M)
    return m.group(1).strip() if m else None


def installed_path(builddir, built):
    """Where `meson install` puts the file built at built."""
    meson = os.environ.get("MESON", "meson")
    r = run([meson, "introspect", "--installed", builddir])
    if r.returncode != 0:
        sys.exit("meson introspect failed:\n" + r.stderr)
    for src, dst in json.loads(r.stdout).items():
        if os.path.realpath(src) == os.path.realpath(built):
            return dst
    sys.exit("%s is not installed by meson" % built)


def verify(destdir, builddir, vgd):
    service = find(destdir, "**/lib/systemd/system/vgd.service")
    socket = find(destdir, "**/lib/systemd/system/vgd.socket")
    with open(service) as f:
        text = f.read()
    # verify insists that ExecStart's binary exists: check that the path
    # is where meson installs vgd, then point it at the built daemon for
    # verify, changing nothing else.
    exe = unit_value(text, "ExecStart").split()[0]
    want = installed_path(builddir, vgd)
    if exe != want:
        sys.exit("ExecStart=%s but vgd is installed as %s" % (exe, want))
    staged = os.path.realpath(vgd)
    work = tempfile.mkdtemp(prefix="vgd-verify.")
    try:
        with open(os.path.join(work, "vgd.service"), "w") as f:
            f.write(text.replace("ExecStart=" + exe, "ExecStart=" + staged))
        shutil.copy(socket, work)
        r = run(["systemd-analyze", "verify", "--man=no", "--generators=no",
                 os.path.join(work, "vgd.service"),
                 os.path.join(work, "vgd.socket")])
    finally:
        shutil.rmtree(work)
    out = (r.stdout + r.stderr).strip()
    print(out)
    if r.returncode != 0 or out:
        sys.exit("systemd-analyze verify reported problems")

    # The unit's paths must be the installed files.
    for key, want in (("ListenStream", "/run/vgd/vgd.sock"),):
        with open(socket) as f:
            got = unit_value(f.read(), key)
        if got != want:
            sys.exit("vgd.socket %s=%s, expected %s" % (key, got, want))

    root = tempfile.mkdtemp(prefix="vgd-root.")
    try:
        os.makedirs(os.path.join(root, "etc"))
        for name in ("passwd", "group", "shadow", "gshadow"):
            open(os.path.join(root, "etc", name), "w").close()
        sysusers = find(destdir, "**/lib/sysusers.d/vgd.conf")
        r = run(["systemd-sysusers", "--root=" + root, sysusers])
        print(r.stdout + r.stderr)
        with open(os.path.join(root, "etc", "passwd")) as f:
            passwd = f.read()
        with open(os.path.join(root, "etc", "group")) as f:
            group = f.read()
        if r.returncode != 0 or not re.search(r"^vgd:", passwd, re.M) or \
                not re.search(r"^vgd-front:", passwd, re.M) or \
                not re.search(r"^vgd-clients:", group, re.M):
            sys.exit("sysusers.d/vgd.conf did not create vgd, vgd-front and vgd-clients")
        uid = {l.split(":")[0]: l.split(":")[2] for l in passwd.splitlines() if l}
        if uid["vgd"] == uid["vgd-front"]:
            sys.exit("vgd and vgd-front have the same uid")
        tmpfiles = find(destdir, "**/lib/tmpfiles.d/vgd.conf")
        if os.geteuid() != 0:
            # The entries chown to root: only root can apply them.
            print("not root: tmpfiles.d/vgd.conf not applied")
            return
        r = run(["systemd-tmpfiles", "--root=" + root, "--create", tmpfiles])
        print(r.stdout + r.stderr)
        keys = unit_value(text, "LoadCredential").split(":", 1)[1]
        st = os.stat(root + keys)
        if r.returncode != 0 or (st.st_mode & 0o777) != 0o700:
            sys.exit("tmpfiles.d/vgd.conf did not make %s mode 0700" % keys)
        # vgctl genkey --sealed writes where the unit decrypts from.
        sealed = unit_value(text, "LoadCredentialEncrypted").split(":", 1)[1]
        st = os.stat(root + sealed)
        if (st.st_mode & 0o777) != 0o700 or st.st_uid != 0:
            sys.exit("tmpfiles.d/vgd.conf did not make %s mode 0700 root" % sealed)
        st = os.stat(root + os.path.dirname(keys) + "/vgd.conf.d")
        if (st.st_mode & 0o777) != 0o755 or st.st_uid != 0:
            sys.exit("tmpfiles.d/vgd.conf did not make vgd.conf.d mode 0755 root")
        # The socket is 0666: its directory is the only gate, so it must
        # admit vgd-clients and nobody else (vgd.socket.in).
        with open(socket) as f:
            sock_text = f.read()
        sock_dir = os.path.dirname(unit_value(sock_text, "ListenStream"))
        st = os.stat(root + sock_dir)
        gid = {l.split(":")[0]: int(l.split(":")[2]) for l in group.splitlines() if l}
        if (st.st_mode & 0o777) != 0o750 or st.st_gid != gid["vgd-clients"] or st.st_uid != 0:
            sys.exit("tmpfiles.d/vgd.conf made %s mode %o uid %d gid %d, expected 0750 "
                     "root:vgd-clients" % (sock_dir, st.st_mode & 0o777, st.st_uid, st.st_gid))
        if unit_value(sock_text, "SocketMode") != "0666" or \
                unit_value(sock_text, "DirectoryMode") != "0750":
            sys.exit("vgd.socket: expected SocketMode=0666 behind DirectoryMode=0750")
    finally:
        shutil.rmtree(root)
    print("units, sysusers and tmpfiles entries check out")


def security(destdir, threshold):
    service = find(destdir, "**/lib/systemd/system/vgd.service")
    r = run(["systemd-analyze", "security", "--offline=yes", "--no-pager",
             service])
    print(r.stdout + r.stderr)
    m = re.search(r"Overall exposure level for vgd\.service: ([0-9.]+)",
                  r.stdout + r.stderr)
    if not m:
        sys.exit("no exposure level in the output")
    score = float(m.group(1))
    print("exposure %.1f, threshold %.1f" % (score, threshold))
    if score > threshold:
        sys.exit("vgd.service exposure %.1f is above %.1f" % (score, threshold))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("verify", "security"):
        sys.exit(__doc__)
    destdir = tempfile.mkdtemp(prefix="vgd-destdir.")
    try:
        install(sys.argv[2], destdir)
        if sys.argv[1] == "verify":
            verify(destdir, sys.argv[2], sys.argv[3])
        else:
            security(destdir, float(sys.argv[3]))
    finally:
        shutil.rmtree(destdir)


if __name__ == "__main__":
    main()
