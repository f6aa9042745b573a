; ec_inv.asm: the two parts of a batch of the P-256/P-384 divsteps
; inversion (kernels/src/ec/ec_inv.c drives them), for every asm tier
; (x86-64 base instructions only: imul/mul, cmov). Contracts at their C
; references in kernels/src/ec/ec.h:
;   void vg_ec_divsteps1(int64_t m[4], int64_t t[1], const uint64_t fg[2], unsigned n);
;   void vg_ec_divsteps2(int64_t m[8], int64_t t[2], const uint64_t fg[4], unsigned n);
;   void vg_ec_inv_apply4(int64_t fg[10], uint64_t de[8], const int64_t m[4],
;                         const uint64_t *mod, uint64_t m0inv);
;   void vg_ec_inv_apply6(int64_t fg[14], uint64_t de[12], const int64_t m[4],
;                         const uint64_t *mod, uint64_t m0inv);
; and, for the ifma rows (AVX-512F/VL: the two inversions' steps in the
; two lanes of xmm registers, the d, e updates beside them; at the end):
;   void vg_ec_inv2_batch4_avx512(struct vg_ec_inv2_state *st, unsigned n, ...);
;   void vg_ec_inv2_batch6_avx512(struct vg_ec_inv2_state *st, unsigned n, ...);
; Secret: f, g, t, the matrices, d, e. The only branches are on the public
; step count n and the public chunk lengths derived from it; the only
; addresses are the arguments and the stack frame. Each function zeroes
; the secrets it spilled to its frame before returning.
%include "x86_64/common/config.asm"

; WIPE_FRAME bytes: zero [rsp, rsp + bytes) (bytes a multiple of 8); rax.
%macro WIPE_FRAME 1
    xor eax, eax
%assign %%j 0
%rep (%1) / 8
    mov [rsp + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
%endmacro

; ---------------------------------------------------------------------
; The steps. Each of f and g travels in one word with its matrix row
; (the packing of ec_inv.c's chunk(): W = w + 2^22 a + 2^43 b, the rows
; scaled by 2^c for a c-step chunk, c <= 19), so one add and one
; arithmetic shift update a value and its row together. nt = -t is kept
; (t = 2 delta), so the mask "delta > 0" is one shift of it. A batch of
; n steps is chunks of at most 19; each chunk starts from the low bits of
; (u f + v g) / 2^s, (q f + r g) / 2^s of the batch's words and the
; matrix so far (exact in 64 - s >= c + 1 bits), and ends by multiplying
; its matrix into the batch's.

; DSTEP F, G, NT, S, X, OG, ZERO: one divstep; S, X, OG scratch, ZERO = 0.
; When delta > 0 and g is odd: (delta, f, g) <- (1 - delta, g, (g - f)/2),
; else (1 + delta, f, (g + (g & 1) f)/2).
%macro DSTEP 7
    mov %4, %3
    sar %4, 63                  ; s: all ones when delta > 0
    mov %5, %1
    xor %5, %4
    sub %5, %4                  ; X = delta > 0 ? -F : F
    test %2, 1
    cmovz %5, %7                ; g even: add nothing
    cmovz %4, %7                ; c = swap (delta > 0 and g odd)
    mov %6, %2                  ; old G: the new F on a swap
    add %2, %5
    test %4, %4
    cmovnz %1, %6
    xor %3, %4                  ; nt = (nt ^ c) - c - 2 = (nt ^ c) + ~c - 1
    not %4
    lea %3, [%3 + %4 - 1]
    sar %2, 1                   ; G = (G + X) / 2, value and row
%endmacro

; The frame of divsteps1/2 (the second inversion's slots unused by 1).
%define D_FG    0               ; f, g of inversion 0, then of 1 (4 words)
%define D_M0    32              ; the batch's matrix so far, inversion 0
%define D_M1    64              ; inversion 1
%define D_K     96              ; the chunk's matrices (4 + 4 words)
%define D_N     160             ; n (public)
%define D_S     168             ; steps done (public)
%define D_C     176             ; this chunk's length (public)
%define D_MP    184             ; m (the output address)
%define D_TP    192             ; t (its address)
%define D_SIZE  200             ; + 6 pushes + return: rsp 16-aligned

; START M, FG, F, G: the chunk's packed words of one inversion from its
; matrix so far at [rsp + M] and its batch words at [rsp + FG]:
; F = low20((u f + v g) >> s) + 2^(22 + c), G = low20((q f + r g) >> s)
; + 2^(43 + c). Clobbers rax, rcx, rdx.
%macro START 4
    mov rcx, [rsp + D_S]        ; s (public)
    mov rax, [rsp + %1]
    imul rax, [rsp + %2]
    mov rdx, [rsp + %1 + 8]
    imul rdx, [rsp + %2 + 8]
    add rax, rdx
    shr rax, cl
    and eax, (1 << 20) - 1
    mov %4, [rsp + %1 + 16]
    imul %4, [rsp + %2]
    mov rdx, [rsp + %1 + 24]
    imul rdx, [rsp + %2 + 8]
    add %4, rdx
    shr %4, cl
    and %4, (1 << 20) - 1
    mov rcx, [rsp + D_C]        ; c (public)
    mov edx, 1
    shl rdx, cl                 ; 2^c
    mov %3, rdx
    shl %3, 22
    add %3, rax
    shl rdx, 43
    add %4, rdx
%endmacro

; UNPACK W, A, B: the row (a, b) of a finished chunk's word W to
; [rsp + A], [rsp + B]: Y = (W + 2^21) >> 22 = a + 2^21 b (|w| < 2^21),
; a = Y's low 21 bits sign-extended (|a| <= 2^19), b = (Y - a) >> 21.
; Clobbers W and rax.
%macro UNPACK 3
    mov eax, 1 << 21
    add %1, rax
    sar %1, 22
    mov rax, %1
    shl rax, 43
    sar rax, 43
    mov [rsp + %2], rax
    sub %1, rax
    sar %1, 21
    mov [rsp + %3], %1
%endmacro

; MATMUL M, K: [rsp + M] = K M (the chunk's matrix after the batch's so
; far): u = Ku Mu + Kv Mq, v = Ku Mv + Kv Mr, q = Kq Mu + Kr Mq,
; r = Kq Mv + Kr Mr (mod 2^64; exact, every entry below 2^62).
; Clobbers rax, rcx, rdx, r8, r9, r11, r12, r13.
%macro MATMUL 2
    mov r8, [rsp + %1]
    mov r9, [rsp + %1 + 8]
    mov r11, [rsp + %1 + 16]
    mov r12, [rsp + %1 + 24]
    mov rax, [rsp + %2]
    mov rcx, [rsp + %2 + 8]
    mov rdx, rax
    imul rdx, r8
    mov r13, rcx
    imul r13, r11
    add rdx, r13
    mov [rsp + %1], rdx
    imul rax, r9
    imul rcx, r12
    add rax, rcx
    mov [rsp + %1 + 8], rax
    mov rax, [rsp + %2 + 16]
    mov rcx, [rsp + %2 + 24]
    mov rdx, rax
    imul rdx, r8
    mov r13, rcx
    imul r13, r11
    add rdx, r13
    mov [rsp + %1 + 16], rdx
    imul rax, r9
    imul rcx, r12
    add rax, rcx
    mov [rsp + %1 + 24], rax
%endmacro

; VSTEP: one divstep of both inversions, one per lane of the xmm
; registers (AVX-512VL for the 64-bit arithmetic shifts): F xmm0, G xmm1,
; nt xmm2, -2 in both lanes xmm8. DSTEP's step with masks instead of
; cmov: s = nt >> 63, o = -(g & 1), X = ((F ^ s) - s) & o, c = s & o,
; G += X, F += G & c (a swap: f + (g - f) = g), nt = (nt ^ c) - c - 2,
; G >>= 1. About six cycles a step for both, against nine or ten for the
; two interleaved general-register chains.
%macro VSTEP 0
    vpsraq xmm3, xmm2, 63               ; s
    vpsllq xmm5, xmm1, 63
    vpsraq xmm5, xmm5, 63               ; o
    vpxorq xmm4, xmm0, xmm3
    vpsubq xmm4, xmm4, xmm3
    vpandq xmm4, xmm4, xmm5             ; X
    vpandq xmm6, xmm3, xmm5             ; c
    vpaddq xmm1, xmm1, xmm4
    vpandq xmm7, xmm1, xmm6
    vpaddq xmm0, xmm0, xmm7
    vpxorq xmm2, xmm2, xmm6
    vpsubq xmm2, xmm2, xmm6
    vpaddq xmm2, xmm2, xmm8
    vpsraq xmm1, xmm1, 1
%endmacro

; DIVSTEPS k: the body of divsteps1 (k = 1) or divsteps2 (k = 2).
; Registers in the step loop: inversion 0 F r8, G r9, nt r10 (scratch
; r11, r12, r13); inversion 1 F r14, G r15, nt rbx (scratch rbp, rax,
; rcx); rsi = 0; rdx the public step counter. nt lives in r10 and rbx
; across the whole batch.
%macro DIVSTEPS 1
    PUSH_CALLEE
    sub rsp, D_SIZE
    mov [rsp + D_MP], rdi
    mov [rsp + D_TP], rsi
    mov eax, ecx
    mov [rsp + D_N], rax
    mov qword [rsp + D_S], 0
%assign %%j 0
%rep 2 * %1
    mov rax, [rdx + 8 * %%j]
    mov [rsp + D_FG + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
    mov eax, 1                          ; the matrices so far: identity
    xor ecx, ecx
    mov [rsp + D_M0], rax
    mov [rsp + D_M0 + 8], rcx
    mov [rsp + D_M0 + 16], rcx
    mov [rsp + D_M0 + 24], rax
%if %1 == 2
    mov [rsp + D_M1], rax
    mov [rsp + D_M1 + 8], rcx
    mov [rsp + D_M1 + 16], rcx
    mov [rsp + D_M1 + 24], rax
%endif
    mov r10, [rsi]
    neg r10                             ; nt
%if %1 == 2
    mov rbx, [rsi + 8]
    neg rbx
%endif
%%chunk:
    mov rax, [rsp + D_N]                ; c = min(n - s, 19), public
    sub rax, [rsp + D_S]
    mov ecx, 19
    cmp rax, rcx
    cmova rax, rcx
    mov [rsp + D_C], rax
    START D_M0, D_FG, r8, r9
%if %1 == 2
    START D_M1, D_FG + 16, r14, r15
%endif
    xor esi, esi
    mov rdx, [rsp + D_C]
%%step:
    DSTEP r8, r9, r10, r11, r12, r13, rsi
%if %1 == 2
    DSTEP r14, r15, rbx, rbp, rax, rcx, rsi
%endif
    dec rdx
    jnz %%step                          ; ct: public step count
    UNPACK r8, D_K, D_K + 8
    UNPACK r9, D_K + 16, D_K + 24
    MATMUL D_M0, D_K
%if %1 == 2
    UNPACK r14, D_K + 32, D_K + 40
    UNPACK r15, D_K + 48, D_K + 56
    MATMUL D_M1, D_K + 32
%endif
    mov rax, [rsp + D_C]
    add rax, [rsp + D_S]
    mov [rsp + D_S], rax
    cmp rax, [rsp + D_N]
    jb %%chunk                          ; ct: public step counts
    mov rdi, [rsp + D_MP]
%assign %%j 0
%rep 4 * %1
    mov rax, [rsp + D_M0 + 8 * %%j]
    mov [rdi + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
    mov rsi, [rsp + D_TP]
    neg r10
    mov [rsi], r10
%if %1 == 2
    neg rbx
    mov [rsi + 8], rbx
%endif
    WIPE_FRAME D_N                      ; f, g and the matrices
    add rsp, D_SIZE
    POP_CALLEE
    ret
%endmacro

FUNC vg_ec_divsteps1
    DIVSTEPS 1
ENDFUNC vg_ec_divsteps1

FUNC vg_ec_divsteps2
    DIVSTEPS 2
ENDFUNC vg_ec_divsteps2

; ---------------------------------------------------------------------
; The matrix application: (f, g) <- M (f, g) / 2^62 on signed 62-bit
; limbs, then (d, e) <- M (d, e) 2^-64 mod m.
;
; (d, e): each new value is h = (a d + b e) 2^-64 mod m for a row (a, b)
; of M (|a| + |b| <= 2^62). With the signs moved onto the residues,
; d' = a < 0 ? m - d : d (likewise e'), S = |a| d' + |b| e' is a
; non-negative sum below 2^62 m (n + 1 words); w = S_0 (-m^-1) mod 2^64
; makes S + w m divisible by 2^64, and V = (S + w m) / 2^64 < m / 4 + m:
; one masked subtraction of m leaves the canonical h.

; The frame of apply4/6.
%define A_MAT   0               ; u, v, q, r
%define A_M0    32              ; m0inv
%define A_DN    40              ; d' (6 words)
%define A_EN    88              ; e' (6 words)
%define A_ND    136             ; the new d (6 words)
%define A_SIZE  184             ; + 6 pushes + return: rsp 16-aligned

; FG_APPLY sl: fg at rdi; the matrix in r12 (u), r13 (v), r14 (q), r15 (r).
; Accumulators cf (r8:r9) and cg (r10:r11), 128-bit signed; rbx = 2^62 - 1.
%macro FG_APPLY 1
    mov rbx, 0x3fffffffffffffff
%assign %%i 0
%rep %1
    mov rax, [rdi + 8 * %%i]
    imul r12                            ; u f_i
%if %%i == 0
    mov r8, rax
    mov r9, rdx
%else
    add r8, rax
    adc r9, rdx
%endif
    mov rax, [rdi + 8 * (%1 + %%i)]
    imul r13                            ; v g_i
    add r8, rax
    adc r9, rdx
    mov rax, [rdi + 8 * %%i]
    imul r14                            ; q f_i
%if %%i == 0
    mov r10, rax
    mov r11, rdx
%else
    add r10, rax
    adc r11, rdx
%endif
    mov rax, [rdi + 8 * (%1 + %%i)]
    imul r15                            ; r g_i
    add r10, rax
    adc r11, rdx
%if %%i > 0
    mov rax, r8
    and rax, rbx
    mov [rdi + 8 * (%%i - 1)], rax
    mov rax, r10
    and rax, rbx
    mov [rdi + 8 * (%1 + %%i - 1)], rax
%endif
    shrd r8, r9, 62
    sar r9, 62
    shrd r10, r11, 62
    sar r11, 62
%assign %%i %%i + 1
%endrep
    mov [rdi + 8 * (%1 - 1)], r8
    mov [rdi + 8 * (2 * %1 - 1)], r10
%endmacro

; SIGNED_RES n, a, src, dst: rbp = |a| ([rsp + a]); [rsp + dst] = a < 0 ?
; m - src : src (n words; src at rsi + src, m at rcx). Clobbers rax, rdx,
; r8-r13 (the differences), rbx.
%macro SIGNED_RES 4
    mov rbp, [rsp + %2]
    mov rbx, rbp
    sar rbx, 63                         ; a < 0
    xor rbp, rbx
    sub rbp, rbx                        ; |a|
%assign %%j 0
%rep %1
%assign %%ra 8 + %%j
%assign %%rb 9 + %%j
    mov r%[%%ra], [rcx + 8 * %%j]
%if %%j == 0
    sub r%[%%ra], [rsi + %3 + 8 * %%j]
%else
    sbb r%[%%ra], [rsi + %3 + 8 * %%j]
%endif
%assign %%j %%j + 1
%endrep
%assign %%j 0
%rep %1
%assign %%ra 8 + %%j
%assign %%rb 9 + %%j
    mov rax, [rsi + %3 + 8 * %%j]
    xor r%[%%ra], rax
    and r%[%%ra], rbx
    xor r%[%%ra], rax
    mov [rsp + %4 + 8 * %%j], r%[%%ra]
%assign %%j %%j + 1
%endrep
%endmacro

; LIN n, a, b, out: [out] = (a d + b e) 2^-64 mod m for the matrix entries
; at [rsp + a], [rsp + b]; d at rsi, e at rsi + 8 n, m at rcx; out an
; address text. S in r8..r8+n (n + 1 words); rbx = |a|, rbp = |b|.
%macro LIN 4
    SIGNED_RES %1, %2, 0, A_DN
    mov rdi, rbp                        ; |a|
    SIGNED_RES %1, %3, 8 * %1, A_EN     ; rbp = |b|
    mov rbx, rdi
    ; S = |a| d'
%assign %%j 0
%rep %1
%assign %%ra 8 + %%j
%assign %%rb 9 + %%j
    mov rax, [rsp + A_DN + 8 * %%j]
    mul rbx
%if %%j == 0
    mov r8, rax
%else
    add r%[%%ra], rax
    adc rdx, 0
%endif
    mov r%[%%rb], rdx
%assign %%j %%j + 1
%endrep
    ; S += |b| e' (rdi carries between words)
%assign %%j 0
%rep %1
%assign %%ra 8 + %%j
%assign %%rb 9 + %%j
    mov rax, [rsp + A_EN + 8 * %%j]
    mul rbp
%if %%j > 0
    add rax, rdi
    adc rdx, 0
%endif
    add r%[%%ra], rax
    adc rdx, 0
    mov rdi, rdx
%assign %%j %%j + 1
%endrep
%assign %%rn 8 + %1
    add r%[%%rn], rdi         ; S < 2^(64 n + 62): no carry out
    ; S + w m, w = S_0 (-m^-1): word 0 becomes 0
    mov rbx, r8
    imul rbx, [rsp + A_M0]
%assign %%j 0
%rep %1
%assign %%ra 8 + %%j
%assign %%rb 9 + %%j
    mov rax, [rcx + 8 * %%j]
    mul rbx
%if %%j > 0
    add rax, rdi
    adc rdx, 0
%endif
    add r%[%%ra], rax
    adc rdx, 0
    mov rdi, rdx
%assign %%j %%j + 1
%endrep
    xor ebp, ebp
%assign %%rn 8 + %1
    add r%[%%rn], rdi
    adc rbp, 0                          ; V = r9..r8+n and the top bit rbp
    ; out = V - m unless that borrows
%assign %%j 0
%rep %1
%assign %%ra 8 + %%j
%assign %%rb 9 + %%j
    mov rax, r%[%%rb]
%if %%j == 0
    sub rax, [rcx]
%else
    sbb rax, [rcx + 8 * %%j]
%endif
    mov [rsp + A_DN + 8 * %%j], rax     ; d' is dead: V - m there
%assign %%j %%j + 1
%endrep
    sbb rbp, 0                          ; CF: V < m, keep V
%assign %%j 0
%rep %1
%assign %%ra 8 + %%j
%assign %%rb 9 + %%j
    mov rax, [rsp + A_DN + 8 * %%j]
    cmovc rax, r%[%%rb]
    mov [%4 + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
%endmacro

; APPLY n: the body of inv_apply4 (n = 4) or inv_apply6.
%macro APPLY 1
    PUSH_CALLEE
    sub rsp, A_SIZE
    mov r12, [rdx]
    mov r13, [rdx + 8]
    mov r14, [rdx + 16]
    mov r15, [rdx + 24]
    mov [rsp + A_MAT], r12
    mov [rsp + A_MAT + 8], r13
    mov [rsp + A_MAT + 16], r14
    mov [rsp + A_MAT + 24], r15
    mov [rsp + A_M0], r8
%assign %%sl %1 + 1
    FG_APPLY %%sl
    LIN %1, A_MAT, A_MAT + 8, rsp + A_ND        ; the new d, kept aside
    LIN %1, A_MAT + 16, A_MAT + 24, rsi + 8 * %1 ; the new e (d, e read first)
%assign %%j 0
%rep %1
    mov rax, [rsp + A_ND + 8 * %%j]
    mov [rsi + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
    WIPE_FRAME A_SIZE
    add rsp, A_SIZE
    POP_CALLEE
    ret
%endmacro

FUNC vg_ec_inv_apply4
    APPLY 4
ENDFUNC vg_ec_inv_apply4

FUNC vg_ec_inv_apply6
    APPLY 6
ENDFUNC vg_ec_inv_apply6

; ---------------------------------------------------------------------
; The ifma rows' batch: both inversions of a signature, their steps in
; AVX-512 lanes (VSTEP), and the previous batch's residue updates (the
; LINs of d and e, which the next steps do not need) spread between the
; chunks of these steps, where they run on the general-register ports
; the vector steps leave idle. Then the new matrices are applied to f and
; g (the next batch needs those) and kept for the next call's LINs.
;   void vg_ec_inv2_batch4_avx512(struct vg_ec_inv2_state *st, unsigned n,
;                                 unsigned lins, const uint64_t *m0,
;                                 const uint64_t *m1);
; and _batch6 for 6 limbs: the contract of vg_ec_inv2_batch_c (ec.h).
; The state's offsets (static-asserted in ec.h):
%define ST_FG    0              ; int64_t fg[2][14]: f (sl limbs), g (sl)
%define ST_DE    224            ; uint64_t de[2][12]: d (n), e (n)
%define ST_M     416            ; int64_t m[2][4]: the pending matrices
%define ST_T     480            ; int64_t t[2]
%define ST_M0INV 496            ; uint64_t m0inv[2]

; The frame: the apply area first (LIN's offsets), then the steps'.
%define A_MAT2  184             ; inversion 1's pending matrix (A_MAT: 0's)
%define A_ND2   216             ; inversion 1's new d
%define B_BASE  264             ; the steps' area (D_* below), 160 bytes
%define B_ST    B_BASE + 184    ; st (public)
%define B_MOD0  B_BASE + 192    ; m0, m1 (public)
%define B_MOD1  B_BASE + 200
%define B_SLOT  B_BASE + 208    ; the next LIN slot, 4 = none (public)
%define B_SIZE  B_BASE + 224    ; 488: + 6 pushes + return: rsp 16-aligned

; B_RUN_SLOTS n, all: run the next LIN slot (all = 0) or every one left
; (all = 1). Slots 0, 1: inversion 0's new d (to A_ND) and e, then
; d = A_ND; slots 2, 3: inversion 1's. Public branches on the counter.
%macro B_RUN_SLOTS 2
%%next:
    mov rax, [rsp + B_SLOT]
    cmp rax, 4
    jae %%done                          ; ct: public slot counter
    inc qword [rsp + B_SLOT]
    cmp rax, 1
    jb %%s0                             ; ct: public slot counter
    je %%s1                             ; ct: public slot counter
    cmp rax, 3
    jb %%s2                             ; ct: public slot counter
    ; slot 3
    mov rsi, [rsp + B_ST]
    add rsi, ST_DE + 96
    mov rcx, [rsp + B_MOD1]
    LIN %1, A_MAT2 + 16, A_MAT2 + 24, rsi + 8 * %1
%assign %%j 0
%rep %1
    mov rax, [rsp + A_ND2 + 8 * %%j]
    mov [rsi + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
    jmp %%again
%%s0:
    mov rsi, [rsp + B_ST]
    mov rax, [rsi + ST_M0INV]
    mov [rsp + A_M0], rax
    add rsi, ST_DE
    mov rcx, [rsp + B_MOD0]
    LIN %1, A_MAT, A_MAT + 8, rsp + A_ND
    jmp %%again
%%s1:
    mov rsi, [rsp + B_ST]
    mov rax, [rsi + ST_M0INV]
    mov [rsp + A_M0], rax
    add rsi, ST_DE
    mov rcx, [rsp + B_MOD0]
    LIN %1, A_MAT + 16, A_MAT + 24, rsi + 8 * %1
%assign %%j 0
%rep %1
    mov rax, [rsp + A_ND + 8 * %%j]
    mov [rsi + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
    jmp %%again
%%s2:
    mov rsi, [rsp + B_ST]
    mov rax, [rsi + ST_M0INV + 8]
    mov [rsp + A_M0], rax
    add rsi, ST_DE + 96
    mov rcx, [rsp + B_MOD1]
    LIN %1, A_MAT2, A_MAT2 + 8, rsp + A_ND2
%%again:
%if %2
    jmp %%next
%endif
%%done:
%endmacro

; The steps' frame offsets inside this frame (START, UNPACK, MATMUL use
; D_S, D_C and the offsets they are given).
%undef D_FG
%undef D_M0
%undef D_M1
%undef D_K
%undef D_N
%undef D_S
%undef D_C
%define D_FG    B_BASE
%define D_M0    B_BASE + 32
%define D_M1    B_BASE + 64
%define D_K     B_BASE + 96
%define D_N     B_BASE + 160
%define D_S     B_BASE + 168
%define D_C     B_BASE + 176

; BATCH n: the body of vg_ec_inv2_batch4/6_avx512 for n limbs.
%macro BATCH 1
%assign %%sl %1 + 1
    PUSH_CALLEE
    sub rsp, B_SIZE
    mov [rsp + B_ST], rdi
    mov [rsp + B_MOD0], rcx
    mov [rsp + B_MOD1], r8
    mov eax, esi
    mov [rsp + D_N], rax
    mov qword [rsp + D_S], 0
    ; the pending matrices, for the LINs (slot 4: none)
    xor eax, eax
    test edx, edx
    mov ecx, 4
    cmovz rax, rcx
    mov [rsp + B_SLOT], rax
%assign %%j 0
%rep 4
    mov rax, [rdi + ST_M + 8 * %%j]
    mov [rsp + A_MAT + 8 * %%j], rax
    mov rax, [rdi + ST_M + 32 + 8 * %%j]
    mov [rsp + A_MAT2 + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
    cmp qword [rsp + D_N], 0
    je %%tail                           ; ct: public step count
    ; the batch's words: the low 64 bits of f and g of both
%assign %%j 0
%rep 2
    mov rax, [rdi + ST_FG + 112 * %%j]
    mov rcx, [rdi + ST_FG + 112 * %%j + 8]
    shl rcx, 62
    or rax, rcx
    mov [rsp + D_FG + 16 * %%j], rax
    mov rax, [rdi + ST_FG + 112 * %%j + 8 * %%sl]
    mov rcx, [rdi + ST_FG + 112 * %%j + 8 * %%sl + 8]
    shl rcx, 62
    or rax, rcx
    mov [rsp + D_FG + 16 * %%j + 8], rax
%assign %%j %%j + 1
%endrep
    mov eax, 1                          ; the matrices so far: identity
    xor ecx, ecx
%assign %%j 0
%rep 2
    mov [rsp + D_M0 + 32 * %%j], rax
    mov [rsp + D_M0 + 32 * %%j + 8], rcx
    mov [rsp + D_M0 + 32 * %%j + 16], rcx
    mov [rsp + D_M0 + 32 * %%j + 24], rax
%assign %%j %%j + 1
%endrep
    vpxorq xmm9, xmm9, xmm9
    vpsubq xmm2, xmm9, [rdi + ST_T]     ; nt of both
    mov rax, -2
    vpbroadcastq xmm8, rax
%%chunk:
    B_RUN_SLOTS %1, 0                   ; one LIN beside this chunk's steps
    mov rax, [rsp + D_N]                ; c = min(n - s, 19), public
    sub rax, [rsp + D_S]
    mov ecx, 19
    cmp rax, rcx
    cmova rax, rcx
    mov [rsp + D_C], rax
    START D_M0, D_FG, r8, r9
    START D_M1, D_FG + 16, r14, r15
    mov rdx, [rsp + D_C]
    vmovq xmm0, r8
    vpinsrq xmm0, xmm0, r14, 1
    vmovq xmm1, r9
    vpinsrq xmm1, xmm1, r15, 1
%%vstep:
    VSTEP
    dec rdx
    jnz %%vstep                         ; ct: public step count
    vmovq r8, xmm0
    vpextrq r14, xmm0, 1
    vmovq r9, xmm1
    vpextrq r15, xmm1, 1
    UNPACK r8, D_K, D_K + 8
    UNPACK r9, D_K + 16, D_K + 24
    MATMUL D_M0, D_K
    UNPACK r14, D_K + 32, D_K + 40
    UNPACK r15, D_K + 48, D_K + 56
    MATMUL D_M1, D_K + 32
    mov rax, [rsp + D_C]
    add rax, [rsp + D_S]
    mov [rsp + D_S], rax
    cmp rax, [rsp + D_N]
    jb %%chunk                          ; ct: public step counts
    ; t; the new matrices: pending for the next call, and applied to f, g
    mov rdi, [rsp + B_ST]
    vpsubq xmm2, xmm9, xmm2
    vmovdqu [rdi + ST_T], xmm2
%assign %%j 0
%rep 8
    mov rax, [rsp + D_M0 + 8 * %%j]
    mov [rdi + ST_M + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
%assign %%j 0
%rep 2
    mov rdi, [rsp + B_ST]
    add rdi, ST_FG + 112 * %%j
    mov r12, [rsp + D_M0 + 32 * %%j]
    mov r13, [rsp + D_M0 + 32 * %%j + 8]
    mov r14, [rsp + D_M0 + 32 * %%j + 16]
    mov r15, [rsp + D_M0 + 32 * %%j + 24]
    FG_APPLY %%sl
%assign %%j %%j + 1
%endrep
%%tail:
    B_RUN_SLOTS %1, 1                   ; the LINs left
%assign %%j 0
%rep 10
    vpxorq xmm%[%%j], xmm%[%%j], xmm%[%%j]
%assign %%j %%j + 1
%endrep
    WIPE_FRAME B_SIZE
    add rsp, B_SIZE
    POP_CALLEE
    ret
%endmacro

FUNC vg_ec_inv2_batch4_avx512
    BATCH 4
ENDFUNC vg_ec_inv2_batch4_avx512

FUNC vg_ec_inv2_batch6_avx512
    BATCH 6
ENDFUNC vg_ec_inv2_batch6_avx512
