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

; int64_t vg_fe4_divsteps(uint64_t rows[2], int64_t t, uint64_t f, uint64_t g,
;                         unsigned n);
; n divsteps (1 <= n <= 30) on the low 64 bits of f (odd) and g, t = 2 delta
; (odd); returns the new t and writes the packed matrix rows rows[0] =
; u + 2^32 v, rows[1] = q + 2^32 r (f_n 2^n = u f + v g, g_n 2^n = q f + r g).
; The contract and the step of vg_fe4_divsteps_c (fe4_inv.c), with cmov for
; the masked selections: per step the chain through g is test, cmov, add,
; shr and the one through delta sar, cmov, xor, lea (delta is kept negated,
; nt = -t, so its sign is one shift). Secret: t, f, g and the rows; n is a
; public count, the only branch.
FUNC vg_fe4_divsteps
    push rbx
    push r12
    push r13
    push r14
    mov r9, rdx                 ; f
    mov r10, rcx                ; g
    mov r11d, 1                 ; rf = 1 (u = 1, v = 0)
    mov r12, 1 << 32            ; rg = 2^32 (q = 0, r = 1)
    neg rsi                     ; nt = -t
    xor r13d, r13d              ; zero, for the cmovs
.step:
    mov rax, rsi
    sar rax, 63                 ; s: all ones when delta > 0
    mov rdx, r9
    xor rdx, rax
    sub rdx, rax                ; x = -f when delta > 0, else f
    mov rbx, r11
    xor rbx, rax
    sub rbx, rax                ; the same for f's row
    test r10b, 1
    cmovz rdx, r13              ; g even: add nothing
    cmovz rbx, r13
    cmovz rax, r13              ; c = swap (delta > 0 and g odd)
    mov rcx, r10                ; old g and its row: f's on a swap
    mov r14, r12
    add r10, rdx                ; g + x
    add r12, rbx
    test rax, rax
    cmovnz r9, rcx              ; swap: f = old g
    cmovnz r11, r14
    xor rsi, rax                ; nt = (nt ^ c) - c - 2 = (nt ^ c) + ~c - 1
    not rax
    lea rsi, [rsi + rax - 1]
    shr r10, 1                  ; g = (g + x) / 2; f's row doubles instead
    add r11, r11
    dec r8d
    jnz .step                   ; ct: public step count n
    mov [rdi], r11
    mov [rdi + 8], r12
    mov rax, rsi
    neg rax                     ; t
    pop r14
    pop r13
    pop r12
    pop rbx
    ret
ENDFUNC vg_fe4_divsteps
