; fe4_base.asm: GF(2^255-19) and the X25519 ladder, base tier (x86-64
; mul/adc only), plus the tier-independent add/sub/mul-by-a24 functions.
; Secret: every field element and scalar bit.
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe4_macros.asm"
%define TIER base
%macro FE_MUL 3
    FE_MUL_BASE %1, %2, %3
%endmacro
%macro FE_SQR 2
    FE_SQR_BASE %1, %2
%endmacro
%include "x86_64/c25519/fe4_tier.asm"
%include "x86_64/c25519/ge4_tier.asm"

; Tier-independent helpers (no mulx), used by every tier's C glue.
; FE_ADD/FE_SUB read all of g before they clobber rdx, so g may be in rdx.
; void vg_fe4_add(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
FUNC vg_fe4_add
    FE_ADD rdi, rsi, rdx
    ret
ENDFUNC vg_fe4_add

; void vg_fe4_sub(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
FUNC vg_fe4_sub
    FE_SUB rdi, rsi, rdx
    ret
ENDFUNC vg_fe4_sub

; void vg_fe4_mul_a24(uint64_t h[4], const uint64_t f[4]);   h = 121665 f
FUNC vg_fe4_mul_a24
    FE_MUL_A24 rdi, rsi
    ret
ENDFUNC vg_fe4_mul_a24

; int64_t vg_fe4_divsteps(int64_t m[4], int64_t t, uint64_t f, uint64_t g,
;                         unsigned n);
; n divsteps (1 <= n <= 19) on the low bits of f (odd) and g, t = 2 delta
; (odd); returns the new t and writes the transition matrix m = (u, v, q,
; r): f_n 2^n = u f + v g, g_n 2^n = q f + r g. The contract of
; vg_fe4_divsteps_c (fe4_inv.c), the reference.
;
; Each of f and g travels in one word with its matrix row: W = w + 2^22 a
; + 2^43 b, w the value's low bits (a signed field, |w| < 2^20: it starts
; as the low 20 bits, and each step averages it with another such value),
; (a, b) its row scaled by 2^n (f's starts as (2^n, 0), g's as (0, 2^n)).
; A step is linear in both parts, so one add and one arithmetic shift
; update the value and its row together: g + x is even and so is every
; scaled row before the last step, so the halving is exact everywhere, and
; the rows stay bounded by 2^n (|a| + |b| <= 2^19: the 21-bit fields do
; not overflow). The low n + 1 bits of the values are exact, all n steps
; read (one parity a step). That is 14 operations a step instead of the
; 21 of separate rows. The chain through g is test, cmov, add, sar and the
; one through delta sar, cmov, xor, lea (kept negated, nt = -t, so its
; sign is one shift). Secret: t, f, g and m; n is a public count, the only
; branch.
FUNC vg_fe4_divsteps
    mov r9d, edx
    and r9d, (1 << 20) - 1      ; f's low 20 bits
    mov r10d, ecx
    and r10d, (1 << 20) - 1
    mov ecx, r8d
    mov eax, 1
    shl rax, cl                 ; 2^n (n public)
    mov rdx, rax
    shl rax, 22
    add r9, rax                 ; F = f + 2^22 2^n
    shl rdx, 43
    add r10, rdx                ; G = g + 2^43 2^n
    neg rsi                     ; nt = -t
    xor r11d, r11d              ; zero, for the cmovs
.step:
    mov rax, rsi
    sar rax, 63                 ; s: all ones when delta > 0
    mov rdx, r9
    xor rdx, rax
    sub rdx, rax                ; X = -F when delta > 0, else F
    test r10b, 1
    cmovz rdx, r11              ; g even: add nothing
    cmovz rax, r11              ; c = swap (delta > 0 and g odd)
    mov rcx, r10                ; old G: F on a swap
    add r10, rdx                ; G + X
    test rax, rax
    cmovnz r9, rcx              ; swap: F = old G
    xor rsi, rax                ; nt = (nt ^ c) - c - 2 = (nt ^ c) + ~c - 1
    not rax
    lea rsi, [rsi + rax - 1]
    sar r10, 1                  ; G = (G + X) / 2, value and row
    dec r8d
    jnz .step                   ; ct: public step count n
    ; the rows: Y = (W + 2^21) >> 22 = a + 2^21 b (|w| < 2^21), then a is
    ; Y's low 21 bits sign-extended and b = (Y - a) >> 21
    mov eax, 1 << 21
    add r9, rax
    sar r9, 22
    mov rax, r9
    shl rax, 43
    sar rax, 43
    mov [rdi], rax              ; u
    sub r9, rax
    sar r9, 21
    mov [rdi + 8], r9           ; v
    mov eax, 1 << 21
    add r10, rax
    sar r10, 22
    mov rax, r10
    shl rax, 43
    sar rax, 43
    mov [rdi + 16], rax         ; q
    sub r10, rax
    sar r10, 21
    mov [rdi + 24], r10         ; r
    mov rax, rsi
    neg rax                     ; t
    ret
ENDFUNC vg_fe4_divsteps
