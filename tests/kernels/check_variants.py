#!/usr/bin/env python3
"""check_variants.py: what `vgd --version` reports as the kernel variants
under each environment (kernels/src/dispatch.c): VG_KERNELS=c gives c for
every operation; VG_CPU_FEATURES=none gives base (c in a build without
asm) for the families with every tier (ed25519, x25519, rsa, p256, p384),
and the feature masks the best tier /proc/cpuinfo says this CPU has; no
operation reports a tier above what the mask allows. sha256 has the rows c
and shani: shani exactly when the mask keeps sha_ni and the CPU has it;
sha512 the rows c, base and adx: the expected tier, capped at adx. An
operation whose batch family (OP-mb: rows c and ifma) runs its assembly
says "+mb" after its tier: exactly the operations that have a batch family
(rsa, ed25519, x25519, p256, p384), when the tier is ifma. Usage:
check_variants.py VGD asm|noasm. Exit 0: all as expected. Nothing here is secret."""
import os
import subprocess
import sys

OPS = {"ed25519", "x25519", "rsa", "p256", "p384"}  # the families with all four rows
MB = {"ed25519", "x25519", "rsa", "p256", "p384"}  # ... with a batch family (ifma only)
SHA = "sha256"  # rows c and shani
SHA512 = "sha512"  # rows c, base, adx
ORDER = ["c", "base", "adx", "ifma"]
ADX = {"bmi1", "bmi2", "adx"}
IFMA = ADX | {"avx512f", "avx512vl", "avx512ifma"}


def variants(vgd, env):
    e = {k: v for k, v in os.environ.items() if k not in ("VG_KERNELS", "VG_CPU_FEATURES")}
    e.update(env)
    out = subprocess.run([vgd, "--version"], env=e, capture_output=True, text=True, check=True)
    line = [l for l in out.stdout.splitlines() if l.startswith("kernels: ")]
    if len(line) != 1:
        sys.exit("no 'kernels:' line in: %r" % out.stdout)
    got = dict(p.split("=", 1) for p in line[0][len("kernels: "):].split())
    mb = {op for op, v in got.items() if v.endswith("+mb")}
    return {op: v[:-3] if op in mb else v for op, v in got.items()}, mb


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for l in f:
                if l.startswith("flags"):
                    return set(l.split(":", 1)[1].split())
    except OSError:
        pass
    return None


def best(flags, keep):
    have = flags if keep is None else flags & keep
    if IFMA <= have:
        return "ifma"
    if ADX <= have:
        return "adx"
    return "base"


def main():
    vgd, has_asm = sys.argv[1], sys.argv[2] == "asm"
    cases = [({"VG_KERNELS": "c"}, "c", "c"),
             ({"VG_KERNELS": "c", "VG_CPU_FEATURES": "none"}, "c", "c"),
             ({"VG_CPU_FEATURES": "none"}, "base" if has_asm else "c", "c")]
    flags = cpu_flags()
    if flags is not None:
        for mask, keep in (("bmi1,bmi2,adx", ADX), ("sha_ni", {"sha_ni"}), (None, None)):
            env = {"VG_CPU_FEATURES": mask} if mask else {}
            have = flags if keep is None else flags & keep
            cases.append((env, best(flags, keep) if has_asm else "c",
                          "shani" if has_asm and "sha_ni" in have else "c"))
    bad = 0
    for env, want, want_sha in cases:
        got, mb = variants(vgd, env)
        tiered = {op: v for op, v in got.items() if op != SHA}
        ok = set(got) >= OPS | {SHA} and all(got[op] == want for op in OPS) and all(
            v in ORDER and ORDER.index(v) <= ORDER.index(want) for v in tiered.values())
        ok = ok and got[SHA] == want_sha
        ok = ok and got.get(SHA512) == ORDER[min(ORDER.index(want), ORDER.index("adx"))]
        ok = ok and mb == (MB if want == "ifma" else set())
        if want == "c":
            ok = ok and all(v == "c" for v in tiered.values())
        pairs = " ".join("%s=%s%s" % (op, v, "+mb" if op in mb else "")
                         for op, v in sorted(got.items()))
        print("%-45s %s%s" % (env or "(no mask)", pairs,
                              "" if ok else "   FAILED: want %s" % want))
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
