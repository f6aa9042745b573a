#!/usr/bin/env python3
"""check_man.py: the manual pages against the code they describe.

usage: check_man.py MANDIR VGD VGCTL CONFIG_C VGCLIENT_H

- vgd(8) and vgctl(1): every option `vgd --help` / `vgctl --help` prints is
  in the page's OPTIONS (and, for vgctl, COMMANDS) and the page names no
  other; vgctl's commands and algorithms are the same sets as --help's.
- vgd.conf(5): its GLOBAL SETTINGS and KEY SECTIONS are exactly the names
  daemon/config.c's set_global() and set_key() compare with; each is also
  fed to `vgd --check-config`, which must not call it an unknown setting
  (and must for a made-up one, so the probe itself can fail).
- libvgclient(3) names every vg_client_* function of vgclient.h and no
  other.
The pages are rendered with groff (no hyphenation, wide lines), so what is
checked is what `man` shows, not the scdoc source.
"""
import os
import re
import subprocess
import sys
import tempfile

errors = []


def err(msg):
    errors.append(msg)


def render(path):
    out = subprocess.run(["groff", "-man", "-Tascii", "-P-cbou", "-rLL=300n", "-rHY=0", path],
                         check=True, capture_output=True, text=True).stdout
    sections, name = {}, None
    for line in out.splitlines():
        if re.match(r"^[A-Z][A-Z ]+$", line):
            name = line.strip()
            sections[name] = []
        elif name:
            sections[name].append(line)
    return {k: "\n".join(v) for k, v in sections.items()}


def items(text):
    """The terms of a definition list: lines indented by exactly 7 spaces."""
    return [m.group(1) for m in re.finditer(r"^ {7}(\S.*)$", text, re.M)]


def long_opts(text):
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))


def short_opts(text):
    return set(re.findall(r"(?<![\w-])-[a-zA-Z](?![\w-])", text))


def compare(what, in_help, in_man, source="--help"):
    for o in sorted(in_help - in_man):
        err(f"{what}: {o} is in {source} but not in the manual page")
    for o in sorted(in_man - in_help):
        err(f"{what}: {o} is in the manual page but not in {source}")


def help_text(prog):
    r = subprocess.run([prog, "--help"], capture_output=True, text=True)
    return r.stdout + r.stderr


def check_vgd(page, vgd):
    s = render(page)
    h = help_text(vgd)
    if "OPTIONS" not in s:
        return err("vgd(8): no OPTIONS section")
    compare("vgd(8) long options", long_opts(h), long_opts(s["OPTIONS"]))
    compare("vgd(8) short options", short_opts(h), short_opts(s["OPTIONS"]))


def check_vgctl(page, vgctl):
    s = render(page)
    h = help_text(vgctl)
    for sec in ("OPTIONS", "COMMANDS", "ALGORITHMS"):
        if sec not in s:
            return err(f"vgctl(1): no {sec} section")
    compare("vgctl(1) options", long_opts(h), long_opts(s["OPTIONS"] + s["COMMANDS"]))
    block = h.split("commands:", 1)[1].split("ALG:", 1)[0]
    help_cmds = set(re.findall(r"^  ([a-z][a-z0-9-]*)", block, re.M))
    man_cmds = {i.split()[0] for i in items(s["COMMANDS"])}
    if not help_cmds:
        err("vgctl --help: no commands found")
    compare("vgctl(1) commands", help_cmds, man_cmds)
    algs = h.split("ALG:", 1)[1]
    algs = algs[:re.search(r"^\S", algs, re.M).start()] if re.search(r"^\S", algs, re.M) else algs
    help_algs = set(re.findall(r"[a-z0-9][a-z0-9-]+", algs))
    man_algs = set(re.findall(r"[a-z0-9][a-z0-9-]+", s["ALGORITHMS"]))
    if len(help_algs) < 3:
        err("vgctl --help: no ALG list found")
    compare("vgctl(1) algorithms", help_algs, man_algs)


def function_body(src, name):
    m = re.search(r"^static int " + name + r"\(.*?^}", src, re.M | re.S)
    if not m:
        err(f"config.c: no function {name}")
        return ""
    return m.group(0)


def parser_names(body):
    return set(re.findall(r'strcmp\(k, "([a-z_0-9]+)"\)', body)) | \
        set(re.findall(r'\{"([a-z_0-9]+)", offsetof', body))


def probe(vgd, text):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "vgd.conf")
        with open(p, "w") as f:
            f.write(text)
        r = subprocess.run([vgd, "--check-config", "-c", p], capture_output=True, text=True)
        return r.stdout + r.stderr


def check_conf(page, vgd, config_c):
    s = render(page)
    src = open(config_c).read()
    for sec, func, prefix in (("GLOBAL SETTINGS", "set_global", ""),
                              ("KEY SECTIONS", "set_key", "[key probe]\n")):
        if sec not in s:
            err(f"vgd.conf(5): no {sec} section")
            continue
        doc = {m.group(1) for i in items(s[sec]) for m in [re.match(r"([a-z_0-9]+) = ", i)] if m}
        code = parser_names(function_body(src, func))
        if not code:
            err(f"config.c: {func} compares with no names")
        compare(f"vgd.conf(5) {sec}", code, doc, f"config.c {func}()")
        for k in sorted(doc):
            out = probe(vgd, f"{prefix}{k} = x\n")
            if "unknown setting" in out:
                err(f"vgd.conf(5): vgd --check-config calls '{k}' ({sec}) unknown: {out.strip()}")
        out = probe(vgd, f"{prefix}no_such_setting_xyz = 1\n")
        if "unknown setting" not in out:
            err(f"vgd --check-config accepted a made-up setting in {sec}: {out.strip()}")


def check_lib(page, header):
    s = "\n".join(render(page).values())
    h = open(header).read()
    in_h = set(re.findall(r"VGC_API [^;]*?\b(vg_client_[a-z0-9_]+)\(", h, re.S))
    in_man = set(re.findall(r"\b(vg_client_[a-z0-9_]+)\(", s))
    if not in_h:
        err("vgclient.h: no VGC_API functions found")
    for f in sorted(in_h - in_man):
        err(f"libvgclient(3): {f}() is not described")
    for f in sorted(in_man - in_h):
        err(f"libvgclient(3): {f}() is not in vgclient.h")


def main():
    mandir, vgd, vgctl, config_c, header = sys.argv[1:6]
    check_vgd(os.path.join(mandir, "vgd.8"), vgd)
    check_vgctl(os.path.join(mandir, "vgctl.1"), vgctl)
    check_conf(os.path.join(mandir, "vgd.conf.5"), vgd, config_c)
    check_lib(os.path.join(mandir, "libvgclient.3"), header)
    for e in errors:
        print("FAIL:", e)
    if errors:
        sys.exit(1)
    print("ok: vgd(8), vgctl(1), vgd.conf(5) and libvgclient(3) match the code")


main()
