#!/usr/bin/env python3
"""ct_asm_check.py: static constant-time check of secret-handling nasm code.

Runs nasm's preprocessor (nasm -E) on each file, so every macro is expanded
and the check sees each instruction that is assembled, then fails on:
  - any conditional branch (jcc, loop*, jrcxz), and
  - any memory operand whose address uses a register other than a public
    base: rsp (the stack frame), rdi/rsi/rcx (pointer arguments, which the
    c25519 code never overwrites with data), rdx only before the first
    instruction that writes it (mul/mulx use it for data), or any index
    register, and
  - div/idiv (data-dependent latency),
unless the (function, instruction) pair is on the ALLOW list below, each
entry with the reason it is public. Usage:
  ct_asm_check.py NASM INCLUDE_DIR FILE.asm...
Exit status 0: clean; 1: violations (listed); 2: usage or nasm error.
Nothing here is secret."""
import fnmatch
import re
import subprocess
import sys

# (function glob, instruction text after whitespace normalisation, reason)
ALLOW = [
    ("vg_fe4_sqrn_*", "jz .done", "loop count n: a public argument"),
    ("vg_fe4_sqrn_*", "jnz .loop", "loop count n: a public argument"),
    ("vg_x25519_ladder_*", "jns .step", "bit position t: public loop counter"),
    ("vg_x25519_ladder_*", "movzx eax, byte [rsi + rax]",
     "byte t/8 of the scalar: the index is the public bit position"),
    ("vg_x25519_ladder_*", "rep stosq", "frame wipe: fixed count"),
    ("vg_ge4_comb_*", "jnz .odd", "row counter of the odd-digit pass: 32 rows, public"),
    ("vg_ge4_comb_*", "jnz .even", "row counter of the even-digit pass: 32 rows, public"),
]

JCC = re.compile(r"^(j(?!mp\b)[a-z]+|loop[a-z]*|jrcxz|jecxz)\b")
MEM = re.compile(r"\[([^\]]*)\]")
REG = re.compile(r"\b(r[a-z0-9]+|e[a-z]{2}|[a-d]l|[sd]il|[a-d]x|[sd]i|[sb]p)\b")
PUBLIC_BASE = {"rsp", "rdi", "rsi", "rcx"}
WRITES_RDX = re.compile(r"^(mul|imul\s+\S+$|div|idiv|cqo|cdq|rdtsc)\b")


def allowed(func, insn):
    for glob, text, _why in ALLOW:
        if fnmatch.fnmatch(func or "", glob) and insn == text:
            return True
    return False


def check(nasm, incdir, path):
    out = subprocess.run([nasm, "-E", "-I", incdir + "/", path], capture_output=True, text=True)
    if out.returncode != 0:
        print(out.stderr, file=sys.stderr)
        sys.exit(2)
    bad = []
    func = None
    rdx_written = False
    ninsn = 0
    for raw in out.stdout.splitlines():
        line = raw.split(";")[0].strip()
        if not line or line.startswith("%line") or line.startswith("["):
            continue
        m = re.match(r"^([A-Za-z_.$][\w.$@]*):\s*(.*)$", line)
        if m:
            if not m.group(1).startswith("."):
                func, rdx_written = m.group(1), False
            line = m.group(2).strip()
            if not line:
                continue
        insn = re.sub(r"\s+", " ", line.lower())
        insn = re.sub(r"\s*,\s*", ", ", insn)
        op = insn.split(" ")[0]
        if op in ("db", "dw", "dd", "dq", "resq", "resb", "times", "align"):
            continue
        ninsn += 1
        why = None
        if JCC.match(insn):
            why = "conditional branch"
        elif op in ("div", "idiv"):
            why = "division (data-dependent latency)"
        elif op == "rep" or insn.startswith("rep "):
            why = "rep string op (count-dependent time)"
        else:
            for mem in MEM.findall(insn):
                regs = REG.findall(mem)
                if "rel" in mem.split() or not regs:
                    continue  # a label: RIP-relative constant table
                # a scale factor next to the register makes it an index;
                # "32 * 2" between constants (nasm -E keeps the arithmetic
                # of %rep-expanded offsets) does not
                scaled = re.search(r"\*\s*%s\b|\b%s\s*\*" % (regs[0], regs[0]), mem)
                base_ok = (len(regs) == 1 and not scaled and
                           (regs[0] in PUBLIC_BASE or (regs[0] == "rdx" and not rdx_written)))
                if not base_ok:
                    why = "address from [%s]" % mem
        if why and not allowed(func, insn):
            bad.append("%s: %s: %s  (%s)" % (path, func, insn, why))
        # track writes to rdx after the check of this instruction's operands
        ops = insn[len(op):].strip()
        first = ops.split(",")[0].strip() if ops else ""
        if (op == "mul" or WRITES_RDX.match(insn) or first in ("rdx", "edx", "dx", "dl")
                or (op == "mulx" and "rdx" in [o.strip() for o in ops.split(",")[:2]])):
            rdx_written = True
    return bad, ninsn


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    nasm, incdir = sys.argv[1], sys.argv[2]
    total, allbad = 0, []
    for path in sys.argv[3:]:
        bad, n = check(nasm, incdir, path)
        total += n
        allbad += bad
        print("%s: %d instructions, %d violations" % (path, n, len(bad)))
    for b in allbad:
        print("VIOLATION " + b)
    if total == 0:
        print("no instructions checked")
        return 1
    return 1 if allbad else 0


if __name__ == "__main__":
    sys.exit(main())
