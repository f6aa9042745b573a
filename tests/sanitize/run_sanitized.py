#!/usr/bin/env python3
"""run_sanitized.py SRCDIR BUILDDIR: the client and daemon integration
tests again, with everything built under AddressSanitizer and
UndefinedBehaviorSanitizer.

A second meson build (BUILDDIR, kept between runs so that a rerun only
recompiles what changed) with -Db_sanitize=address,undefined; only the
targets those tests need are built, then `meson test --no-rebuild` runs
them, with ASAN_OPTIONS and UBSAN_OPTIONS such that any report fails the
test (halt_on_error / abort_on_error). Leak detection is off: the
supervisor leaves its event base and key store to exit, by design, and
LeakSanitizer's end-of-process scan needs ptrace, which the children's
seccomp filters forbid. ASan works inside the filters: its shadow memory
is mapped before they load, and its allocator maps only non-executable
memory (the front may; the keyholder does not allocate after its filter
is on), and the children leave through exit_group itself
(vgd_sandbox_exit), not through the runtime's _exit interceptor, which
calls sigaltstack. -Werror is off in that build only: GCC's flow warnings (-Wnonnull,
-Warray-bounds) give false positives on the paths the instrumentation
adds; the regular build keeps -Werror."""
import json
import os
import subprocess
import sys

# The client and daemon integration tests (suite integration, less the
# install and symbol tests, which check the installed library rather than
# run code), and the sandbox suite's daemon tests. daemon-conns is what
# found the front's tick reading the clock before its settle step stamped
# connections (an age that wrapped closed a busy connection as idle):
# ASan's slower settle made it visible.
TESTS = ["e2e", "vgctl", "vgctl-csr", "client-sync", "client-async",
         "daemon-pipeline", "daemon-conns", "daemon-malformed", "daemon-access",
         "daemon-crash", "daemon-reload", "daemon-stats", "daemon-acct", "daemon-checkconfig",
         "daemon-sched", "daemon-cpus", "daemon-completion", "daemon-spec",
         "sandbox-seccomp", "sandbox-privsep", "sandbox-liveness", "sandbox-keyfiles",
         "sandbox-supchan"]


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw).returncode


def main():
    src, build = sys.argv[1], sys.argv[2]
    meson = os.environ.get("MESON", "meson")
    if not os.path.exists(os.path.join(build, "build.ninja")):
        if run([meson, "setup", build, src, "-Db_sanitize=address,undefined",
                "-Db_lundef=false", "-Dbuildtype=debugoptimized", "-Dwerror=false",
                "-Dfuzzing=disabled",
                "-Dbench=disabled", "-Dprovider=disabled"]) != 0:
            return 1
    else:
        # A build from an older tree: regenerate it first, so that its
        # test list is this tree's (ninja reruns meson when a meson.build
        # changed).
        if run(["ninja", "-C", build, "build.ninja"]) != 0:
            return 1
    tests = json.loads(subprocess.run([meson, "introspect", "--tests", build],
                                      check=True, capture_output=True, text=True).stdout)
    byname = {t["name"]: t for t in tests}
    missing = [t for t in TESTS if t not in byname]
    if missing:
        print("not in the sanitized build: " + " ".join(missing))
        return 1
    # Each test's program and what it depends on (vgd, vgd-testhooks,
    # vgctl, helpers), by output file, relative to the build directory.
    targets = set()
    targets_json = json.loads(subprocess.run([meson, "introspect", "--targets", build],
                                             check=True, capture_output=True,
                                             text=True).stdout)
    by_id = {t["id"]: t for t in targets_json}
    for t in TESTS:
        exe = byname[t]["cmd"][0]
        for tj in targets_json:
            if exe in tj["filename"]:
                targets.add(os.path.relpath(exe, build))
        for dep in byname[t].get("depends", []):
            if dep in by_id:
                for f in by_id[dep]["filename"]:
                    targets.add(os.path.relpath(f, build))
    targets = sorted(x for x in targets if not x.startswith(".."))
    if run(["ninja", "-C", build] + targets) != 0:
        return 1
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "halt_on_error=1:abort_on_error=1:print_summary=1:detect_leaks=0"
    env["UBSAN_OPTIONS"] = "halt_on_error=1:abort_on_error=1:print_summary=1:print_stacktrace=1"
    # ASan and UBSan slow everything down: each test's own timeout, tripled.
    return run([meson, "test", "-C", build, "--no-rebuild", "--print-errorlogs",
                "--num-processes", "2", "--timeout-multiplier", "3"] + TESTS, env=env)


if __name__ == "__main__":
    sys.exit(main())
