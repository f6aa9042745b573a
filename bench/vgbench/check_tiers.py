#!/usr/bin/env python3
"""check_tiers.py: vgbench --tier T runs our kernels at tier T, and its
tier column says what ran: with --tier c every row is the portable C
(VG_KERNELS=c), with --tier base every row the base asm (or c in a build
without asm). Usage: check_tiers.py VGBENCH asm|noasm. No timing is
asserted. Nothing here is secret."""
import subprocess
import sys


def rows(vgbench, tier):
    out = subprocess.run([vgbench, "--quick", "--tsv", "--tier", tier, "--filter",
                          "^(ed25519-sign-64|x25519-var|rsa2048-private)$"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("vgbench --tier %s failed: %s" % (tier, out.stderr))
    got = [l.split("\t") for l in out.stdout.splitlines()
           if "\t" in l and not l.startswith("op\t")]
    if not got:
        sys.exit("vgbench --tier %s printed no rows:\n%s" % (tier, out.stdout))
    return got


def main():
    vgbench, has_asm = sys.argv[1], sys.argv[2] == "asm"
    bad = 0
    for tier, want in (("c", "c"), ("base", "base" if has_asm else "c@base")):
        for r in rows(vgbench, tier):
            ok = r[1] == want
            print("--tier %-4s %-16s %-8s %s" % (tier, r[0], r[1],
                                                 "" if ok else "FAILED: want " + want))
            bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
