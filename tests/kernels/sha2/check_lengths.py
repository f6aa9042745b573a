#!/usr/bin/env python3
"""Run sha2_lengths and check every line against hashlib (an independent
SHA-2). Fails on any mismatch, and if fewer lines than expected came out."""
import hashlib
import subprocess
import sys

MAXLEN = 1100


def main():
    out = subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout
    msg = bytes((i * 31 + 7) & 0xFF for i in range(MAXLEN))
    n = 0
    bad = 0
    for line in out.splitlines():
        alg, length, digest = line.split()
        want = hashlib.new(alg, msg[: int(length)]).hexdigest()
        if digest != want:
            print(f"MISMATCH {alg} len={length}: got {digest} want {want}")
            bad += 1
        n += 1
    expected = 3 * (MAXLEN + 1)
    if n != expected:
        print(f"read {n} lines, expected {expected}")
        return 1
    print(f"{n} digests checked, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
