#!/usr/bin/env python3
"""ct_asm_check.py: static constant-time check of every secret-handling
assembly function, of every kernel family (Curve25519, RSA, ...).

Each .asm file is assembled (nasm, the build's flags) and disassembled
(objdump -d -M intel); every function (a FUNC/ENDFUNC symbol with a size)
is then checked by a taint analysis over its control-flow graph, run to a
fixed point over the loops. A general register, a stack slot ([rsp + k])
or the flags are PUBLIC when computed only from public values: the
function's address arguments and rsp on entry (its "entry" rule below),
constants, and public registers and slots. Anything loaded from other
memory, and every vector or mask register, is SECRET. The check fails on
  - a conditional branch (jcc, loop, jrcxz) on secret flags or count,
  - a memory operand whose address uses a secret register (a secret
    table index or pointer; RIP-relative addresses are constant),
  - div/idiv on secret operands (data-dependent latency),
  - a rep string instruction with a secret count or pointer,
unless the instruction is on the allow-list below with its reason
("public": the instruction's results count as public). A function no
entry rule covers is an error, so new assembly must be described here.

One allow-list, RULES: (function glob, kind, text, reason), kind "entry"
(text: the registers that hold public addresses on entry) or "public"
(text: an instruction as objdump prints it, spaces normalised).

Usage: ct_asm_check.py NASM INCLUDE_DIR [--only FUNCTION] FILE.asm...
(--only: check that function alone: the planted should_fail tests.)
Exit status 0: clean; 1: violations (listed); 99 (meson's "hard error",
which a should_fail test does not count as the failure it expects): no
function checked, a function without an entry rule, a tool error or bad
usage. Nothing here is secret: this reads code."""
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

RULES = [
    # --- Curve25519 (kernels/x86_64/c25519/, prototypes in fe4.h)
    ("vg_fe4_mul_*", "entry", "rdi rsi rdx", "h, f, g"),
    ("vg_fe4_sqr_*", "entry", "rdi rsi", "h, f"),
    ("vg_fe4_sqrn_*", "entry", "rdi rsi rdx", "h, f, and n: a public count"),
    ("vg_fe4_add", "entry", "rdi rsi rdx", "h, f, g"),
    ("vg_fe4_sub", "entry", "rdi rsi rdx", "h, f, g"),
    ("vg_fe4_mul_a24", "entry", "rdi rsi", "h, f"),
    ("vg_fe4_mul_a24_add", "entry", "rdi rsi rdx", "h, f, g"),
    ("vg_fe4_addsub_w", "entry", "rdi rsi rdx rcx", "s, d, m, p (wide)"),
    ("vg_fe4_divsteps62", "entry", "rdi r8", "m, and n: a public step count (rsi, rdx, rcx: t, f, g)"),
    ("vg_fe4_inv_apply", "entry", "rdi rsi rdx", "fg, de, m (the matrix)"),
    ("vg_x25519_ladder_*", "entry", "rdi rsi rdx", "xz, e (the scalar's address), x1"),
    # the c25519_mb family (eight lanes; prototypes in c25519_mb_impl.h)
    ("vg_x25519mb_ladder_*", "entry", "rdi rsi rdx", "xz, e (the scalars' address), x1"),
    ("vg_fe51mb_mul_*", "entry", "rdi rsi rdx", "h, f, g"),
    ("vg_fe51mb_sqrn_*", "entry", "rdi rsi rdx", "h, f, and n: a public count"),
    ("vg_ge51mb_comb_*", "entry", "rdi rsi rdx", "h, the comb table, e (the digits' address)"),
    ("vg_ge4_comb_*", "entry", "rdi rsi rdx", "h, the comb table, e (the digits' address)"),
    ("vg_ge4_comb64_*", "entry", "rdi rsi rdx", "h, the comb table, e (the digits' address)"),
    ("vg_ge4_madd_*", "entry", "rdi rsi", "h, q"),
    ("vg_ge4_add_*", "entry", "rdi rsi", "h, q"),
    ("vg_ge4_dbl_*", "entry", "rdi", "h"),
    ("vg_ge52_add_*", "entry", "rdi rsi", "s, q"),
    ("vg_ge52_dbl_*", "entry", "rdi", "s"),
    # --- RSA (kernels/x86_64/rsa/, prototypes in mont_asm.h, rsa52.h)
    ("vg_mont_mul_*", "entry", "rdi rsi rdx rcx", "r, a, b, m (r8 = m0inv and n are data)"),
    ("vg_mont_sqr_*", "entry", "rdi rsi rdx rcx", "r, a, b (== a), m"),
    # The frame's slots hold public pointers while the code between needs
    # every register; stores through another pointer into the frame (r11
    # or rsi, into T) make the check forget the slots, so each reload is
    # listed, from the frames' layouts: both adx kernels keep r at word
    # 2N + 2 and m at 2N + 3 (SQ_R, SQ_M; MB_R, MB_M), reloaded after
    # REDUCE_BLK, the triangles and MUL_BLK; the 48- and 64-limb squarings
    # a at 2N + 4 (SQ_A), after their triangle loop.
] + [
    rule
    for n in (16, 24, 32, 48, 64)
    for rule in (
        ("vg_mont_*_adx_%d" % n, "public", "mov rdi,QWORD [rsp+0x%x]" % (8 * (2 * n + 2)),
         "r (slot SQ_R, MB_R)"),
        ("vg_mont_*_adx_%d" % n, "public", "mov rcx,QWORD [rsp+0x%x]" % (8 * (2 * n + 3)),
         "m (slot SQ_M, MB_M)"),
    ) + ((
        ("vg_mont_sqr_adx_%d" % n, "public", "mov rsi,QWORD [rsp+0x%x]" % (8 * (2 * n + 4)),
         "a (slot SQ_A)"),
    ) if n >= 48 else ())
] + [
    ("vg_amm52x*", "entry", "rdi rsi rdx rcx r8", "r, a, b, m, k0"),
    ("vg_amm52x2w_*", "entry", "rdi rsi rdx rcx r8", "acc, sel, m, k0, and nsq: a public count"),
    ("vg_rsa52_select2_*", "entry", "rdi rsi", "sel, table (rdx, rcx: the secret indices)"),
    # the rsa_mb family (eight lanes; prototypes in rsa_mb_impl.h)
    ("vg_amm52mb_win_*", "entry", "rdi rsi rdx rcx r8 r9",
     "acc, table, idx (the secret indices' address), m, k0, and nsq: a public count"),
    ("vg_amm52mb_mulsel_*", "entry", "rdi rsi rdx rcx r8 r9",
     "r, a, table, idx (the secret indices' address), m, k0"),
    ("vg_amm52mb_*", "entry", "rdi rsi rdx rcx r8", "r, a, b, m, k0 (the lanes' k0 array)"),
    ("vg_rsa52mb_select_*", "entry", "rdi rsi rdx", "sel, table, idx (the secret indices' address)"),
    # --- P-256/P-384 (kernels/x86_64/ec/, prototypes in kernels/src/ec/ec_asm.h)
    ("vg_p256_add", "entry", "rdi rsi rdx", "r, a, b"),
    ("vg_p256_sub", "entry", "rdi rsi rdx", "r, a, b"),
    ("vg_p384_add", "entry", "rdi rsi rdx", "r, a, b"),
    ("vg_p384_sub", "entry", "rdi rsi rdx", "r, a, b"),
    ("vg_p*_mul_*", "entry", "rdi rsi rdx", "r, a, b"),
    ("vg_p*_ord_mul_*", "entry", "rdi rsi rdx", "r, a, b"),
    ("vg_p*_sqr_*", "entry", "rdi rsi", "r, a"),
    ("vg_p*_jdbl_*", "entry", "rdi rsi", "r, p"),
    ("vg_p*_jmadd_*", "entry", "rdi rsi rdx", "r, p, q"),
    ("vg_p*_jadd_*", "entry", "rdi rsi rdx", "r, p, q"),
    # (also vg_p256mb_comb_ifma and vg_p384mb_comb_ifma: r is their eight
    # lanes' output, d their digits)
    ("vg_p*_comb_*", "entry", "rdi rsi rdx", "r, the comb table, d (the digits' address)"),
    ("vg_ec_divsteps1", "entry", "rdi rsi rdx rcx", "m, t, fg, and n: a public step count"),
    ("vg_ec_divsteps2", "entry", "rdi rsi rdx rcx", "m, t, fg, and n: a public step count"),
    ("vg_ec_inv2_batch*_avx512", "entry", "rdi rsi rdx rcx r8",
     "st, n (a public step count), lins (a public flag), the two moduli"),
    ("vg_ec_inv_apply4", "entry", "rdi rsi rdx rcx", "fg, de, m (the matrix), mod (r8 = m0inv is data)"),
    ("vg_ec_inv_apply6", "entry", "rdi rsi rdx rcx", "fg, de, m (the matrix), mod (r8 = m0inv is data)"),
    # --- SHA-256, SHA-512 (kernels/x86_64/sha2/)
    ("vg_sha256_blocks_*", "entry", "rdi rsi rdx", "h, p, and nblocks: a public count"),
    ("vg_sha512_blocks_*", "entry", "rdi rsi rdx", "h, p, and nblocks: a public count"),
]

GPR64 = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp"] + ["r%d" % i for i in range(8, 16)]
ALIAS = {}
for _r, _names in (("rax", "eax ax al ah"), ("rbx", "ebx bx bl bh"), ("rcx", "ecx cx cl ch"),
                   ("rdx", "edx dx dl dh"), ("rsi", "esi si sil"), ("rdi", "edi di dil"),
                   ("rbp", "ebp bp bpl"), ("rsp", "esp sp spl")):
    ALIAS[_r] = _r
    for _n in _names.split():
        ALIAS[_n] = _r
for _i in range(8, 16):
    for _s in ("", "d", "w", "b"):
        ALIAS["r%d%s" % (_i, _s)] = "r%d" % _i
REG = re.compile(r"\b(%s)\b" % "|".join(sorted(ALIAS, key=len, reverse=True)))
SIZE = re.compile(r"\b(BYTE|WORD|DWORD|QWORD|XMMWORD|YMMWORD|ZMMWORD|TBYTE|FWORD) (PTR|BCST) ")

# Instructions that write their first operand without reading it.
WRITE_ONLY = {"mov", "movzx", "movsx", "movsxd", "lea", "pop", "mulx", "bzhi", "shlx", "shrx",
              "sarx", "rorx", "andn", "pext", "pdep", "blsr", "blsi", "blsmsk", "bextr",
              "popcnt", "lzcnt", "tzcnt", "vmovq", "vmovd", "movq", "movd", "kmovq", "kmovd",
              "vpextrq", "vpextrd", "pextrq", "pextrd"}
# Instructions that write no general register and only read their operands.
NO_WRITE = {"cmp", "test", "bt", "push", "jmp", "ret", "nop"}
# Instructions that leave the flags alone; every other one is taken to set
# them from its inputs (the safe default for one not listed).
KEEPS_FLAGS = {"mov", "movzx", "movsx", "movsxd", "lea", "push", "pop", "mulx", "shlx", "shrx",
               "sarx", "rorx", "pdep", "pext", "bswap", "not", "xchg", "nop", "jmp", "ret",
               "rep", "movq", "movd", "movdqa", "movdqu", "movaps", "movups"}
VECTOR_FLAGS = ("ptest", "vptest", "kortest", "ktest", "comis", "ucomis", "vcomis", "vucomis")


def sets_flags(mn):
    if mn.startswith(VECTOR_FLAGS):
        return True
    if mn in KEEPS_FLAGS or mn.startswith(("cmov", "set", "j", "loop", "v", "k", "p")):
        return False
    return True
# The flags in three groups, tracked apart because instructions write
# them apart: C (CF), O (OF) and Z (ZF, SF, PF, AF). inc and dec keep CF;
# adcx reads and writes CF alone, adox OF alone.
FLAG_READS = {"adc": "C", "sbb": "C", "rcl": "C", "rcr": "C", "adcx": "C", "adox": "O"}
FLAG_WRITES = {"inc": "OZ", "dec": "OZ", "adcx": "C", "adox": "O"}
# Condition codes (jcc, cmovcc, setcc) and the groups they read.
COND = {"o": "O", "no": "O", "b": "C", "c": "C", "nae": "C", "nb": "C", "nc": "C", "ae": "C",
        "e": "Z", "z": "Z", "ne": "Z", "nz": "Z", "be": "CZ", "na": "CZ", "a": "CZ",
        "nbe": "CZ", "s": "Z", "ns": "Z", "p": "Z", "np": "Z", "pe": "Z", "po": "Z",
        "l": "ZO", "nge": "ZO", "ge": "ZO", "nl": "ZO", "le": "ZO", "ng": "ZO", "g": "ZO",
        "nle": "ZO"}


def cond_reads(mn):
    """The flag groups a jcc/cmovcc/setcc reads, or None for another
    instruction."""
    for prefix in ("cmov", "set", "j"):
        if mn.startswith(prefix) and mn[len(prefix):] in COND:
            return COND[mn[len(prefix):]]
    return None


def rules(func, kind):
    return [(text, why) for glob, k, text, why in RULES
            if k == kind and fnmatch.fnmatch(func, glob)]


def norm(text):
    return re.sub(r"\s+", " ", text).strip()


def split_ops(ops):
    out, depth, cur = [], 0, ""
    for ch in ops:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


WIDTH = {"BYTE": 1, "WORD": 2, "DWORD": 4, "QWORD": 8, "XMMWORD": 16, "YMMWORD": 32,
         "ZMMWORD": 64}


class State:
    """Public general registers; public stack slots {offset: width}, the
    offset from rsp's value at entry (or at the last `and rsp`, which
    starts a new frame); the public flag groups; rsp as (frame, offset);
    the registers that hold a saved rsp (to restore it); and the registers
    that may point into the frame (a store through one of them may
    overwrite a slot)."""

    def __init__(self, regs, slots, flags, rsp, saved, stackish):
        self.regs, self.slots, self.flags = set(regs), dict(slots), set(flags)
        self.rsp, self.saved, self.stackish = rsp, dict(saved), set(stackish)

    def copy(self):
        return State(self.regs, self.slots, self.flags, self.rsp, self.saved, self.stackish)

    def join(self, o):
        if self.rsp != o.rsp:
            raise ValueError("stack depth differs between paths (%s, %s)" % (self.rsp, o.rsp))
        slots = {k: w for k, w in self.slots.items() if o.slots.get(k) == w}
        saved = {r: v for r, v in self.saved.items() if o.saved.get(r) == v}
        return State(self.regs & o.regs, slots, self.flags & o.flags, self.rsp, saved,
                     self.stackish | o.stackish)

    def key(self):
        return (frozenset(self.regs), frozenset(self.slots.items()), frozenset(self.flags),
                self.rsp, frozenset(self.saved.items()), frozenset(self.stackish))


def stack_slot(operand, st):
    """(offset, width) of an operand [rsp], [rsp+k], [rsp-k] (offset in
    the current frame), else None."""
    m = re.search(r"\[([^\]]*)\]", operand)
    if not m:
        return None
    a = re.fullmatch(r"rsp(?:([+-])0x([0-9a-f]+))?", m.group(1).replace(" ", ""))
    if not a:
        return None
    k = int(a.group(2), 16) if a.group(2) else 0
    w = re.match(r"(\w+) \[", operand)
    width = WIDTH.get(w.group(1), 64) if w else 64
    return st.rsp[1] + (k if a.group(1) != "-" else -k), width


def slot_public(st, slot):
    off, width = slot
    return st.slots.get(off, 0) >= width


def slot_write(st, slot, public):
    off, width = slot
    for k, w in list(st.slots.items()):
        if k < off + width and off < k + w:
            del st.slots[k]
    if public:
        st.slots[off] = width


def step(insn, st, func, report):
    """The state after insn; report(msg) for each violation found."""
    mn, ops, text = insn["mn"], insn["ops"], insn["text"]
    st = st.copy()
    allowed = bool([t for t, _ in rules(func, "public") if t == text])
    mems = re.findall(r"\[([^\]]*)\]", ops)
    operands = split_ops(ops)
    first = operands[0] if operands else ""
    first_reg = ALIAS.get(first) if first in ALIAS else None

    # Addresses (lea computes one without reading memory).
    for mem in mems if mn != "lea" else []:
        if "rip" in mem:
            continue
        for r in REG.findall(mem):
            if ALIAS[r] not in st.regs and not allowed:
                report("address uses secret %s" % ALIAS[r])

    # What the instruction reads, as public or not.
    srcs = operands if mn not in WRITE_ONLY else operands[2:] if mn == "mulx" else operands[1:]
    if mn == "lea":
        srcs = REG.findall(mems[0]) if "rip" not in mems[0] else []
    elif first in ALIAS and re.fullmatch(r"[a-d][lh]|[sd]il|[bs]pl|[a-d]x|[sd]i|[bs]p|r\d+[wb]",
                                         first):
        srcs = list(srcs) + [first]  # an 8- or 16-bit write keeps the rest of the register
    if mn in ("xor", "sub", "sbb") and len(operands) == 2 and operands[0] == operands[1] \
            and first_reg:
        srcs = []  # zeroing idiom (sbb r, r: 0 or -1 by CF, counted below)
    inputs_public = True
    for o in srcs:
        if "[" in o:
            if "rip" in o:
                continue  # a constant table
            slot = stack_slot(o, st)
            if slot is None or not slot_public(st, slot):
                inputs_public = False
            continue
        regs = REG.findall(re.sub(r"\{[^}]*\}", "", o))
        if re.match(r"^[xyz]mm|^k[0-7]\b", o):
            inputs_public = False
        for r in regs:
            if ALIAS[r] not in st.regs:
                inputs_public = False
    reads = FLAG_READS.get(mn, "") + (cond_reads(mn) or "")
    inputs_public &= all(g in st.flags for g in reads)
    if mn in ("mul", "div", "idiv") or (mn == "imul" and len(operands) == 1):
        inputs_public &= "rax" in st.regs
    if mn in ("div", "idiv"):
        inputs_public &= "rdx" in st.regs
    if mn == "mulx":
        inputs_public &= "rdx" in st.regs
    if allowed:
        inputs_public = True

    # Branches, division, string instructions.
    if (mn.startswith("j") and mn != "jmp") or mn.startswith("loop"):
        if mn in ("jrcxz", "jecxz") or mn.startswith("loop"):
            if "rcx" not in st.regs and not allowed:
                report("branch on a secret count (rcx)")
        elif cond_reads(mn) is None:
            raise ValueError("unknown branch %s" % mn)
        elif not inputs_public and not allowed:
            report("conditional branch on secret flags")
    if mn in ("div", "idiv") and not inputs_public:
        report("division of secret operands (data-dependent latency)")
    if mn.startswith("rep"):
        for r in ("rcx", "rdi", "rsi") if "movs" in text or "cmps" in text else ("rcx", "rdi"):
            if r not in st.regs and not allowed:
                report("rep with secret %s" % r)

    # Flags.
    if sets_flags(mn):
        for g in FLAG_WRITES.get(mn, "COZ"):
            (st.flags.add if inputs_public else st.flags.discard)(g)

    # Stack pointer.
    frame, off = st.rsp
    if mn == "push":
        st.rsp = (frame, off - 8)
        slot_write(st, (off - 8, 8), inputs_public)
        return st
    if mn == "pop":
        if first_reg:
            (st.regs.add if slot_public(st, (off, 8)) else st.regs.discard)(first_reg)
            st.saved.pop(first_reg, None)
        st.rsp = (frame, off + 8)
        return st
    if first_reg == "rsp":
        arith = re.fullmatch(r"(sub|add) rsp,0x([0-9a-f]+)", text)
        if arith:
            st.rsp = (frame, off + int(arith.group(2), 16) * (-1 if arith.group(1) == "sub" else 1))
        elif re.fullmatch(r"and rsp,0x[0-9a-f]+", text):
            st.rsp, st.slots = (max(f for f, _ in [st.rsp] + list(st.saved.values())) + 1, 0), {}
        elif mn == "mov" and operands[1] in st.saved:
            st.rsp = st.saved[operands[1]]
            st.slots = {}  # the slots of the earlier frame are not tracked
        else:
            raise ValueError("unsupported change of rsp: %s" % text)
        return st
    if mn == "mov" and first_reg and operands[1] == "rsp":
        st.regs.add(first_reg)
        st.saved[first_reg] = st.rsp
        st.stackish.add(first_reg)
        return st

    # Written registers and slots.
    written = set()
    if mn in ("mul", "div", "idiv") or (mn == "imul" and len(operands) == 1):
        written |= {"rax", "rdx"}
    elif mn in ("cqo", "cdq"):
        written.add("rdx")
        inputs_public = "rax" in st.regs
    elif mn == "mulx":
        written |= {ALIAS[o] for o in operands[:2] if o in ALIAS}
    elif mn.startswith("rep"):
        written |= {"rcx", "rdi"} | ({"rsi"} if "movs" in text else set())
        inputs_public = True  # they stay the same public pointers, stepped
    elif mn == "xchg":
        written |= {ALIAS[o] for o in operands if o in ALIAS}
        inputs_public = all(ALIAS[o] in st.regs for o in operands if o in ALIAS)
    elif mn not in NO_WRITE and first_reg:
        written.add(first_reg)
    if "[" in first and mn not in NO_WRITE:
        slot = stack_slot(first, st)
        if slot is not None:
            slot_write(st, slot, inputs_public)
        elif {ALIAS[r] for r in REG.findall(mems[0])} & (st.stackish | {"rsp"}):
            st.slots = {}  # a store into the frame at an untracked place
    derived = any(ALIAS.get(r) in st.stackish for o in srcs for r in REG.findall(o))
    for r in written:
        st.saved.pop(r, None)
        (st.stackish.add if derived else st.stackish.discard)(r)
    for r in written:
        (st.regs.add if inputs_public else st.regs.discard)(r)
    if mn.startswith("v") or mn.startswith("k"):
        for r in written:  # a vector instruction's general-register result
            if any(re.match(r"^[xyz]mm|^k[0-7]\b", o) for o in operands[1:]) and not allowed:
                st.regs.discard(r)
    return st


def parse(obj):
    """{function: [insn]} for the functions of obj (FUNC symbols with a size)."""
    syms = subprocess.run(["nm", "-S", "--defined-only", obj], capture_output=True, text=True,
                          check=True).stdout
    funcs = {}
    for line in syms.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "Tt" and not p[3].startswith(".."):
            funcs[p[3]] = (int(p[0], 16), int(p[1], 16))
        elif len(p) == 3 and p[1] == "T":
            raise ValueError("%s: global %s has no size (no ENDFUNC?)" % (obj, p[2]))
    dis = subprocess.run(["objdump", "-d", "-M", "intel", "--no-show-raw-insn", obj],
                         capture_output=True, text=True, check=True).stdout
    insns = []
    for line in dis.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if not m:
            continue
        text = re.sub(r"\s+#.*$|\s+<[^>]*>$", "", m.group(2))
        text = norm(SIZE.sub(lambda s: s.group(1) + " ", text))
        if not text or "nop" in text.split()[:2] or text.startswith(("xchg ax,ax", "data16")):
            continue
        toks = text.split(" ", 1)
        mn, ops = toks[0], toks[1] if len(toks) > 1 else ""
        if mn in ("rep", "repz", "repe", "repnz", "repne"):
            mn = "rep"
        ops = re.sub(r"\b[cdefgs]s:", "", ops)
        insns.append({"addr": int(m.group(1), 16), "mn": mn, "ops": ops,
                      "text": norm(mn + " " + ops if mn != "rep" else text)})
    out = {}
    for name, (start, size) in funcs.items():
        out[name] = [i for i in insns if start <= i["addr"] < start + size]
    return out


HARD_ERROR = 99


def check(func, insns):
    """The violations in func; ValueError when it cannot be analysed."""
    entry = rules(func, "entry")
    if not entry:
        raise ValueError("no entry rule in ct_asm_check.py (its public address registers)")
    regs = {"rsp"}
    for text, _ in entry:
        regs |= set(text.split())
    index = {ins["addr"]: k for k, ins in enumerate(insns)}
    state_in = {0: State(regs, {}, "COZ", (0, 0), {}, set())}
    work = [0]
    errors = []
    try:
        while work:
            k = work.pop()
            out = step(insns[k], state_in[k], func, lambda msg: None)
            for s in succ(insns, k, index, func):
                new = out if s not in state_in else state_in[s].join(out)
                if s not in state_in or new.key() != state_in[s].key():
                    state_in[s] = new
                    work.append(s)
    except ValueError as e:
        raise ValueError("%s: %s" % (func, e))
    for k in sorted(state_in):
        ins = insns[k]
        step(ins, state_in[k], func, lambda msg, ins=ins: errors.append(
            "%s+0x%x: %s: %s" % (func, ins["addr"] - insns[0]["addr"], ins["text"], msg)))
    return errors


def succ(insns, k, index, func):
    ins = insns[k]
    mn = ins["mn"]
    if mn == "ret":
        return []
    out = []
    if mn.startswith("j") or mn.startswith("loop"):
        m = re.match(r"([0-9a-f]+)", ins["ops"])
        if not m or int(m.group(1), 16) not in index:
            raise ValueError("branch out of the function: %s" % ins["text"])
        out.append(index[int(m.group(1), 16)])
        if mn == "jmp":
            return out
    if k + 1 < len(insns):
        out.append(k + 1)
    return out


def main(argv):
    if len(argv) < 4 or (argv[3] == "--only" and len(argv) < 6):
        print(__doc__, file=sys.stderr)
        return HARD_ERROR
    nasm, incdir, files = argv[1], argv[2], argv[3:]
    only = None
    if files[0] == "--only":
        only, files = files[1], files[2:]
    total, errors = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for n, path in enumerate(files):
            obj = os.path.join(tmp, "%d.o" % n)
            r = subprocess.run([nasm, "-f", "elf64", "-Ox", "-I", incdir.rstrip("/") + "/", "-o",
                                obj, path], capture_output=True, text=True)
            if r.returncode != 0:
                print(r.stderr, file=sys.stderr)
                return HARD_ERROR
            try:
                funcs = parse(obj)
            except (ValueError, subprocess.CalledProcessError) as e:
                print(e, file=sys.stderr)
                return HARD_ERROR
            for name in sorted(funcs):
                if only and name != only:
                    continue
                try:
                    e = check(name, funcs[name])
                except ValueError as err:
                    print("%s: cannot check %s" % (path, err), file=sys.stderr)
                    return HARD_ERROR
                total += 1
                print("%s: %s: %d instructions, %s" % (os.path.basename(path), name,
                                                       len(funcs[name]),
                                                       "ok" if not e else "%d violations" % len(e)))
                errors += e
    for e in errors:
        print("VIOLATION " + e)
    if total == 0:
        print("no function checked" + (" (no %s)" % only if only else ""))
        return HARD_ERROR
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
