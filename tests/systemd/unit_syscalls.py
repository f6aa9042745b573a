#!/usr/bin/env python3
"""unit_syscalls.py: expand a unit's SystemCallFilter= lines into the list
of system calls it allows, one per line (input of unit_sandbox.c).

Usage: unit_syscalls.py UNIT OUTPUT

Follows systemd.exec(5): the first assignment decides allow-list mode (no
"~"), later assignments add names, "~" assignments remove them, in order;
groups (@name) are expanded with `systemd-analyze syscall-filter`. The calls
systemd always allows (execve, exit, exit_group, getrlimit, rt_sigreturn,
sigreturn, and time queries/sleeps, i.e. @default) are added as systemd
does."""
import subprocess
import sys

_groups = {}


def expand(name):
    if not name.startswith("@"):
        return {name}
    if name not in _groups:
        out = subprocess.run(["systemd-analyze", "syscall-filter", name],
                             capture_output=True, text=True, check=True).stdout
        calls = set()
        for line in out.splitlines()[1:]:
            item = line.strip()
            if item and not item.startswith("#"):
                calls |= expand(item)
        if not calls:
            sys.exit("unit_syscalls: %s expands to nothing" % name)
        _groups[name] = calls
    return _groups[name]


def allowed(unit_text):
    allow = None
    for raw in unit_text.splitlines():
        line = raw.strip()
        if not line.startswith("SystemCallFilter="):
            continue
        value = line.split("=", 1)[1].strip()
        if not value:
            allow = None
            continue
        deny = value.startswith("~")
        names = set()
        for item in value.lstrip("~").split():
            # name[:errno] overrides are not used by vgd.service.
            names |= expand(item.split(":", 1)[0])
        if allow is None:
            if deny:
                sys.exit("unit_syscalls: deny-list units are not handled")
            allow = set()
        allow = allow - names if deny else allow | names
    if allow is None:
        sys.exit("unit_syscalls: no SystemCallFilter= in the unit")
    for name in ("execve", "exit", "exit_group", "getrlimit", "rt_sigreturn",
                 "sigreturn"):
        allow.add(name)
    return allow | expand("@default")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: unit_syscalls.py UNIT OUTPUT")
    with open(sys.argv[1]) as f:
        calls = allowed(f.read())
    with open(sys.argv[2], "w") as f:
        f.write("".join(c + "\n" for c in sorted(calls)))


if __name__ == "__main__":
    main()
