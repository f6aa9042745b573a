#!/usr/bin/env python3
"""ctasm_rsa.py: static constant-time check of the RSA assembly, on the
disassembly of the built library (objdump -d -M intel). Every function
whose name starts with one of PREFIXES must pass two rules:

  1. Every conditional branch is preceded by a flag-setting instruction on
     the short allow-list below (loop counters only).
  2. Every memory operand's base and index registers are "public": one of
     the function's address registers (argument pointers, the stack), and
     inside a loop those registers are written only by allow-listed
     instructions (constant steps). A register written by anything else
     stops being an address register from that point on.

Anything else that touches memory or branches fails the check, so a
secret-dependent branch or table index added later is caught. Nothing
secret: this reads code. Usage: ctasm_rsa.py LIBRARY.a | --selftest
"""
import re
import subprocess
import sys

PREFIXES = ("vg_mont_mul_", "vg_mont_sqr_", "vg_amm52x", "vg_ams52x", "vg_rsa52_select2_")
# Only the assembly (the C functions sharing the prefixes are not checked here).
ASM_NAME = re.compile(r"^(vg_mont_mul_(base|adx)|vg_mont_sqr_adx|vg_amm52x[12]_ifma|vg_ams52x2_ifma|vg_rsa52_select2_ifma)_[0-9]+$")

# Registers that hold public addresses on entry (SysV arguments that are
# pointers, and the stack pointer), per function family.
ADDRESS_REGS = {
    "vg_mont_mul_": {"rdi", "rsi", "rdx", "rcx", "rsp"},  # r, a, b, m
    "vg_mont_sqr_": {"rdi", "rsi", "rcx", "rsp"},  # r, a, m
    "vg_amm52x": {"rdi", "rsi", "rdx", "rcx", "r8", "rsp"},  # r, a, b, m, k0
    "vg_ams52x": {"rdi", "rsi", "rcx", "r8", "rsp"},  # r, a, m, k0 (b unused)
    "vg_rsa52_select2_": {"rdi", "rsi", "rsp"},  # sel, table (rdx, rcx: secret indices)
}

# Instructions allowed to set the flags a conditional branch reads:
#   dec ebp        the row counter of vg_mont_mul_*/vg_mont_sqr_* (N rows)
#   cmp rbx,rbp    vg_amm52x*: the digit pointer against its end
#                  (vg_ams52x*'s reduction counts rows with dec ebp)
#   cmp rsi,r8     vg_rsa52_select2_*: the entry pointer against the table end
BRANCH_FLAG_SETTERS = {"dec ebp", "cmp rbx,rbp", "cmp rsi,r8"}

# Writes that keep an address register public (constant steps and moves
# between address registers):
#   lea rsi,[rsi+0x8]   next digit/limb of a (vg_mont_mul_*)
#   add rbx,0x8         next digit of b (vg_amm52x2_*)
#   mov r9,rdx          vg_mont_mul_* keeps b in r9 (rdx is mulx's)
#   mov rbx,rdx         vg_amm52x2_* keeps b in rbx (rdx is mulx's)
#   lea rbp,[rbx+...]   vg_amm52x2_*: end of b's digits
#   add rsi,0x280, lea r8,[rsi+0x2800]   vg_rsa52_select2_*: next entry, end
#   mov r11,rsp, lea r11,[r11+0x8]   vg_mont_sqr_*: the reduction's row
#                       pointer into the stack, one limb per row
#   push/pop, sub/add rsp,imm   the stack frame
ADDRESS_WRITES = [
    r"lea rsi,\[rsi\+0x8\]",
    r"add rbx,0x8",
    r"mov r11,rsp",
    r"lea r11,\[r11\+0x8\]",
    r"mov r9,rdx",
    r"mov rbx,rdx",
    r"lea rbp,\[rbx\+0x[0-9a-f]+\]",
    r"add rsi,0x280",
    r"lea r8,\[rsi\+0x2800\]",
    r"(sub|add) rsp,0x[0-9a-f]+",
]
ADDRESS_WRITE_RE = [re.compile("^" + p + "$") for p in ADDRESS_WRITES]

GPR = re.compile(r"\b(r[a-d]x|r[sd]i|r[sb]p|r[89]|r1[0-5]|e[a-d]x|e[sd]i|e[sb]p|r[89]d|r1[0-5]d)\b")
FULL = {"eax": "rax", "ebx": "rbx", "ecx": "rcx", "edx": "rdx", "esi": "rsi", "edi": "rdi",
        "esp": "rsp", "ebp": "rbp"}


def full(reg):
    if reg in FULL:
        return FULL[reg]
    return reg[:-1] if reg.endswith("d") and reg.startswith("r") else reg


def parse(text):
    """{function: [(addr, mnemonic, operands)]} from objdump output."""
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            name = m.group(1)
            if not name.startswith(".."):  # nasm local labels are not functions
                cur = name if ASM_NAME.match(name) or name.startswith("selftest_") else None
                if cur:
                    funcs[cur] = []
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m and cur:
            ops = re.sub(r"\s+#.*$", "", m.group(3)).replace(" PTR ", " ").strip()
            ops = re.sub(r"(QWORD|ZMMWORD|DWORD|BYTE|WORD|XMMWORD|YMMWORD) ", "", ops)
            funcs[cur].append((int(m.group(1), 16), m.group(2), ops))
    return funcs


def written(mn, ops):
    """General registers an instruction writes (destination and implicit)."""
    regs = set()
    first = ops.split(",")[0] if ops else ""
    if mn in ("push", "pop", "call", "ret"):
        regs.add("rsp")
    if mn == "pop" and first:
        regs.add(full(first))
    if mn in ("mul", "imul") and "," not in ops:
        regs |= {"rax", "rdx"}
    if mn == "mulx":
        regs |= {full(r) for r in ops.split(",")[:2]}
    elif first and "[" not in first and GPR.fullmatch(first) and mn not in (
            "push", "cmp", "test", "jmp") and not mn.startswith("j"):
        regs.add(full(first))
    return regs


def check(name, insns):
    errors = []
    family = next(p for p in PREFIXES if p in name)
    public = set(ADDRESS_REGS[family])
    # loop bodies: [target, branch] of every backward branch
    loops = []
    for addr, mn, ops in insns:
        if mn.startswith("j") or mn in ("loop", "jrcxz"):
            t = re.match(r"([0-9a-f]+)", ops)
            if t and int(t.group(1), 16) <= addr:
                loops.append((int(t.group(1), 16), addr))
    prev = None
    for addr, mn, ops in insns:
        text = f"{mn} {ops}".strip()
        where = f"{name}+0x{addr - insns[0][0]:x}: {text}"
        if (mn.startswith("j") and mn != "jmp") or mn in ("loop", "jrcxz", "cmov"):
            if prev not in BRANCH_FLAG_SETTERS:
                errors.append(f"{where}: conditional branch after '{prev}' (not allow-listed)")
        if mn.startswith("cmov") or mn.startswith("set"):
            errors.append(f"{where}: flag-dependent select ({mn}) not expected here")
        for mem in re.findall(r"\[([^\]]*)\]", ops):
            for r in GPR.findall(mem):
                if full(r) not in public:
                    errors.append(f"{where}: address uses {full(r)} (not an address register)")
        for r in written(mn, ops):
            if r not in public:
                continue
            if any(p.match(text) for p in ADDRESS_WRITE_RE) or mn in ("push", "pop", "ret"):
                continue
            # Inside a loop, a register both written by data and used as an
            # address would carry data into an address on the next turn.
            for lo, hi in loops:
                if lo <= addr <= hi and any(
                        r in {full(x) for m2 in re.findall(r"\[([^\]]*)\]", o2)
                              for x in GPR.findall(m2)}
                        for a2, _, o2 in insns if lo <= a2 <= hi):
                    errors.append(f"{where}: writes address register {r} inside a loop "
                                  "that uses it as an address")
            public.discard(r)
        if mn == "mov" and ops == "r9,rdx" and "rdx" in public:
            public.add("r9")
        if mn == "mov" and ops == "r11,rsp" and family == "vg_mont_sqr_":
            public.add("r11")
        if mn == "mov" and ops == "rbx,rdx" and "rdx" in public:
            public.add("rbx")
        if mn == "lea" and ops.startswith("rbp,[rbx+") and "rbx" in public:
            public.add("rbp")
        prev = text
    return errors


SELFTEST_BAD = {
    # a branch on a data-dependent flag
    "selftest_vg_mont_mul_bad_branch": """
0000000000000000 <selftest_vg_mont_mul_bad_branch>:
   0:	mov    rax,QWORD PTR [rsi]
   3:	test   rax,rax
   6:	je     0 <selftest_vg_mont_mul_bad_branch>
   8:	ret
""",
    # a table index computed from data
    "selftest_vg_amm52x2_bad_index": """
0000000000000000 <selftest_vg_amm52x2_bad_index>:
   0:	mov    rax,QWORD PTR [rsi]
   3:	mov    rax,QWORD PTR [rcx+rax*8]
   7:	ret
""",
    # the table indexed by the secret window (rdx) instead of scanned
    "selftest_vg_rsa52_select2_bad": """
0000000000000000 <selftest_vg_rsa52_select2_bad>:
   0:	vmovdqu64 zmm4,ZMMWORD PTR [rsi+rdx*8]
   7:	ret
""",
    # an address register overwritten by data inside a loop
    "selftest_vg_mont_mul_bad_loop": """
0000000000000000 <selftest_vg_mont_mul_bad_loop>:
   0:	mov    rsi,QWORD PTR [rsi]
   3:	dec    ebp
   5:	jne    0 <selftest_vg_mont_mul_bad_loop>
   7:	ret
""",
}


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--selftest":
        bad = 0
        for name, text in SELFTEST_BAD.items():
            errs = check(name, parse(text)[name])
            print(f"{name}: {'caught' if errs else 'MISSED'}")
            bad += not errs
        return 1 if bad else 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = subprocess.run(["objdump", "-d", "-M", "intel", "--no-show-raw-insn", sys.argv[1]],
                         check=True, capture_output=True, text=True).stdout
    funcs = parse(out)
    errors = []
    for name, insns in sorted(funcs.items()):
        e = check(name, insns)
        print(f"{name}: {len(insns)} instructions, {'ok' if not e else 'FAILED'}")
        errors += e
    for e in errors:
        print(e)
    if not funcs:
        print("no RSA assembly function found")
        return 1
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
