; ge4_tier.asm: the Ed25519 fixed-base comb as one function per tier
; (constant-time table scans with SSE2 masks, mixed additions and
; doublings with the field macros inlined, so no call or register save per
; field operation), and the single point operations the verification's
; double multiplication calls (end of file). Included by fe4_TIER.asm
; after fe4_tier.asm (TIER and the field macros defined). Secret: the
; digits, every selected entry and every point coordinate; the only
; branches are on the public loop counter and the only addresses are the
; public table rows, digit positions and the stack frame.
;
; C prototypes (kernels/src/c25519/fe4.h):
;   void vg_ge4_comb_TIER(vg_ge4_p3 *h, const vg_ge4_niels comb[52][16],
;                         const int8_t e[52]);
;   void vg_ge4_comb64_TIER(vg_ge4_p3 *h, const vg_ge4_niels comb[43][32],
;                           const int8_t e[43]);            (needs AVX)
; h = sum_k [e_k] (32^k B), digits in [-16, 16], row k of comb holding
; 1..16 times 32^k B as (y+x, y-x, 2dxy); comb64 likewise in radix 64.
; h is written as extended coordinates (X, Y, Z, T), partially reduced.
; Radix 32 rather than 16: 52 mixed additions instead of 64, for scans of
; 16 entries instead of 8 (the scans run on the vector units, beside the
; multiplications of the previous addition); radix 64 with AVX: 43, for
; scans of 32 (see COMB). One row per digit (78 KiB of table) rather than 26
; rows read twice with five doublings between the two passes: the
; doublings were ~6 % of the comb, the second 39 KiB of table costs
; nothing we could measure (the rows stream from L2 either way).

; The frame (32-byte elements; G_T is the selected entry).
%define G_T     0               ; selected (y+x, y-x, 2dxy): 96 bytes
%define G_A     96
%define G_B     128
%define G_C     160
%define G_D     192
%define G_E     224
%define G_F     256
%define G_G     288
%define G_H     320
%define G_NEG   352             ; all ones if the digit is negative (secret)
%define G_CNT   360             ; rows left in this pass (public)
%define G_COMB  368             ; the table base (public)
%define G_NEGN  376             ; G_NEG of the next row's entry (secret)
%define G_BW    384             ; the comb's B and D wide (five words,
%define G_DW    424             ; 40 bytes each; D's top word is 0, set once)
%define G_SIZE  464             ; a multiple of 16

; The point h is at rdi: X +0, Y +32, Z +64, T +96.

; Select [b] of the row at rsi for the digit at [rcx] into the frame's
; G_T; G_NEG = sign mask. All sixteen entries are read; the magnitude is
; compared with 1..16 in SSE2 lanes, the sign swaps y+x and y-x under a
; mask (the 2dxy negation is folded into the addition: see GE_MADD_PIPE).
; The select is in three parts, so the comb can interleave the next
; row's table scan (vector unit) with the current mixed addition (integer
; unit): at about 600 instructions an addition is too long for the
; out-of-order window to overlap the two otherwise. SEL_BEGIN reads the
; digit at [rcx] (uses eax, edx: call it between field operations) into
; xmm15 (|b|) and xmm13 (the sign mask, also stored at G_NEGN); SEL_SCAN
; first, count compares entries first.. of the row at rsi (vector
; registers only); SEL_END applies the sign and stores the entry at G_T.
%macro SEL_BEGIN 0
    movsx eax, byte [rcx]
    mov edx, eax
    sar edx, 31                 ; -1 if negative
    xor eax, edx
    sub eax, edx                ; |b| in 0..16 (0..32)
    movsxd rdx, edx
    mov [rsp + G_NEGN], rdx
%if CV
    ; VEX encodings only while the upper halves are in use: no SSE/AVX
    ; transition (Haswell) or merge (later Intel cores) on the way
    vmovd xmm13, edx
    vpshufd xmm13, xmm13, 0
    vmovd xmm15, eax
    vpshufd xmm15, xmm15, 0
    vpxor xmm12, xmm12, xmm12
    vpcmpeqd xmm12, xmm12, xmm15
    vpand xmm0, xmm12, [ge4_one] ; VEX.128 zeroes the upper halves
    vmovdqa xmm1, xmm0
    vpxor xmm2, xmm2, xmm2
%else
    movd xmm13, edx
    pshufd xmm13, xmm13, 0      ; the sign mask in every lane
    movd xmm15, eax
    pshufd xmm15, xmm15, 0      ; |b| in all four dword lanes
    pxor xmm12, xmm12
    pcmpeqd xmm12, xmm15        ; b = 0: the identity (1, 1, 0)
    pand xmm12, [ge4_one]
    movdqa xmm0, xmm12
    pxor xmm1, xmm1
    movdqa xmm2, xmm12
    pxor xmm3, xmm3
    pxor xmm4, xmm4
    pxor xmm5, xmm5
%endif
%endmacro
%macro SEL_SCAN 2
%assign j %1
%rep %2
%if CV
    ; AVX: the mask in both halves of ymm12, an entry in three 32-byte
    ; and-or steps into ymm0 (y+x), ymm1 (y-x), ymm2 (2dxy)
    vpcmpeqd xmm12, xmm15, [ge4_mags + 16 * j]
    vinsertf128 ymm12, ymm12, xmm12, 1
%assign k 0
%rep 3
    vandps ymm11, ymm12, [rsi + j * 96 + k * 32]
    vorps ymm %+ k, ymm %+ k, ymm11
%assign k k + 1
%endrep
%else
    movdqa xmm12, xmm15
    pcmpeqd xmm12, [ge4_mags + 16 * j] ; |b| = j + 1: the entry's mask
%assign k 0
%rep 6
%assign off j * 96 + k * 16
    movdqu xmm11, [rsi + off]
    pand xmm11, xmm12
    por xmm %+ k, xmm11
%assign k k + 1
%endrep
%endif
%assign j j + 1
%endrep
%endmacro
%macro SEL_END 0
%if CV
    vinsertf128 ymm13, ymm13, xmm13, 1
    vxorps ymm11, ymm0, ymm1    ; negative: y+x and y-x trade places
    vandps ymm11, ymm11, ymm13
    vxorps ymm0, ymm0, ymm11
    vxorps ymm1, ymm1, ymm11
    vmovups [rsp + G_T], ymm0
    vmovups [rsp + G_T + 32], ymm1
    vmovups [rsp + G_T + 64], ymm2
%else
    movdqa xmm11, xmm0          ; negative: y+x and y-x trade places
    pxor xmm11, xmm2
    pand xmm11, xmm13
    pxor xmm0, xmm11
    pxor xmm2, xmm11
    movdqa xmm11, xmm1
    pxor xmm11, xmm3
    pand xmm11, xmm13
    pxor xmm1, xmm11
    pxor xmm3, xmm11
    movdqa [rsp + G_T], xmm0
    movdqa [rsp + G_T + 16], xmm1
    movdqa [rsp + G_T + 32], xmm2
    movdqa [rsp + G_T + 48], xmm3
    movdqa [rsp + G_T + 64], xmm4
    movdqa [rsp + G_T + 80], xmm5
%endif
%endmacro

; GE_MADD with the select of the next row (at rsi, digit at [rcx])
; interleaved: the entry at G_T is read by the first three products, the
; sign G_NEG by the swap; the next select then writes G_NEGN and, after
; the last product, G_T, and G_NEG takes G_NEGN.
; Every second operand of its additions is a product (h's coordinates
; are products, or the start's 0 and 1), so they take FE_ADD_B/FE_SUB_B's
; one fold. A, B and C are left wide (unfolded) and FE_ADDSUB_W makes E,
; H from B (stored) and A (in r8-r12), and F, G from D (stored, its top
; word 0) and C, folding each sum and difference once (the ladder's
; FE_ADDSUB_W: comb 0.976 of the former, A/B in one process on Zen 5);
; the sign's swap of F and G is done there by cmov (the stores of B and
; C, their loads and the integer FE_CSWAP's 36 instructions were ~5 % of
; an addition, and the comb is bound by instruction issue; an SSE swap of
; F and G instead stalled on the 128-bit loads of the 64-bit stores just
; made).
%macro GE_MADD_PIPE 0
    FE_ADD_B rsp + G_B, rdi + 32, rdi           ; Y1 + X1
    FE_SUB_B rsp + G_A, rdi + 32, rdi           ; Y1 - X1
    FE_MUL_W rsp + G_BW, rsp + G_B, rsp + G_T   ; B = (Y1 + X1)(y + x)
    FE_MUL_RW rsp + G_A, rsp + G_T + 32         ; A = (Y1 - X1)(y - x)
    FE_ADDSUB_W rsp + G_BW                      ; H = B + A, E = B - A
    FE_STORE rsp + G_H
    FE_STORE_HI rsp + G_E
    FE_ADD_B rsp + G_DW, rdi + 64, rdi + 64     ; D = 2 Z1, wide (top word 0)
    FE_MUL_RW rdi + 96, rsp + G_T + 64          ; C = T1 2dxy
    GE_FG_W
    SEL_BEGIN
    SEL_SCAN 0, CE / 4
    FE_MUL rdi, rsp + G_E, rsp + G_F            ; X3 = E F
    SEL_SCAN CE / 4, CE / 4
    FE_MUL rdi + 32, rsp + G_G, rsp + G_H       ; Y3 = G H
    SEL_SCAN CE / 2, CE / 4
    FE_MUL rdi + 64, rsp + G_F, rsp + G_G       ; Z3 = F G
    SEL_SCAN 3 * CE / 4, CE / 4
    FE_MUL rdi + 96, rsp + G_E, rsp + G_H       ; T3 = E H
    SEL_END
    mov rax, [rsp + G_NEGN]
    mov [rsp + G_NEG], rax
%endmacro

; F = D - C and G = D + C with C wide in r8-r12 and D wide at G_DW
; (FE_ADDSUB_W), then F and G exchanged when G_NEG is set (a negative
; digit: -C for C) by cmov on the flags of that mask, and stored.
; Clobbers rax, rbx, rdx, r8-r15.
%macro GE_FG_W 0
    FE_ADDSUB_W rsp + G_DW      ; r8-r11 = G = D + C, r12-r15 = F = D - C
    mov rax, [rsp + G_NEG]
    test rax, rax               ; ZF clear: negative digit, exchange
%assign i 0
%rep 4
    mov rax, r %+ %eval(12 + i)
    cmovnz r %+ %eval(12 + i), r %+ %eval(8 + i)
    cmovnz r %+ %eval(8 + i), rax
%assign i i + 1
%endrep
    FE_STORE_HI rsp + G_F
    FE_STORE rsp + G_G
%endmacro

; h = h + t (madd-2008-hwcd-3, a = -1) with t the affine entry at %1
; (y+x at +0, y-x at +32, 2dxy at +64): GE_MADD_EFGH then GE_OUT (the
; verification's vg_ge4_madd). In the comb (GE_MADD_PIPE), a negative
; digit should have negated the entry's 2dxy: that turns C into -C, which
; exchanges F = D - C and G = D + C, done by GE_FG_W's cmovs.
%macro GE_MADD_EFGH 1
    FE_SUB rsp + G_A, rdi + 32, rdi             ; Y1 - X1
    FE_MUL rsp + G_A, rsp + G_A, %1 + 32        ; A = (Y1 - X1)(y - x)
    FE_ADD rsp + G_B, rdi + 32, rdi             ; Y1 + X1
    FE_MUL rsp + G_B, rsp + G_B, %1             ; B = (Y1 + X1)(y + x)
    FE_MUL rsp + G_C, rdi + 96, %1 + 64         ; C = T1 2dxy
    FE_ADD rsp + G_D, rdi + 64, rdi + 64        ; D = 2 Z1
    GE_EFGH
%endmacro

; E, F, G, H from A, B, C, D (the frame); %1 empty, or _B when A and C
; are products (FE_ADD_B, FE_SUB_B).
%macro GE_EFGH 0-1
    FE_SUB%1 rsp + G_E, rsp + G_B, rsp + G_A    ; E = B - A
    FE_ADD%1 rsp + G_H, rsp + G_B, rsp + G_A    ; H = B + A
    FE_SUB%1 rsp + G_F, rsp + G_D, rsp + G_C    ; F = D - C
    FE_ADD%1 rsp + G_G, rsp + G_D, rsp + G_C    ; G = D + C
%endmacro

; h = (E F, G H, F G, E H); %1 = 0 skips T (a doubling's result that only
; feeds another doubling).
%macro GE_OUT 1
    FE_MUL rdi, rsp + G_E, rsp + G_F            ; X3 = E F
    FE_MUL rdi + 32, rsp + G_G, rsp + G_H       ; Y3 = G H
    FE_MUL rdi + 64, rsp + G_F, rsp + G_G       ; Z3 = F G
%if %1
    FE_MUL rdi + 96, rsp + G_E, rsp + G_H       ; T3 = E H
%endif
%endmacro

; h = 2h (dbl-2008-hwcd, a = -1), extended to extended coordinates.
%macro GE_DBL_EFGH 0
    FE_SQR rsp + G_A, rdi                       ; A = X1^2
    FE_SQR rsp + G_B, rdi + 32                  ; B = Y1^2
    FE_SQR rsp + G_C, rdi + 64
    FE_ADD rsp + G_C, rsp + G_C, rsp + G_C      ; C = 2 Z1^2
    FE_ADD rsp + G_E, rdi, rdi + 32
    FE_SQR rsp + G_E, rsp + G_E                 ; (X1 + Y1)^2
    FE_ADD rsp + G_H, rsp + G_A, rsp + G_B      ; A + B
    FE_SUB rsp + G_E, rsp + G_E, rsp + G_H      ; E = (X1 + Y1)^2 - A - B
    FE_SUB rsp + G_G, rsp + G_B, rsp + G_A      ; G = B - A
    FE_SUB rsp + G_F, rsp + G_G, rsp + G_C      ; F = G - C
    FE_SUB rsp + G_H, ge4_zero, rsp + G_H       ; H = -(A + B)
%endmacro
%macro GE_DBL 0
    GE_DBL_EFGH
    GE_OUT 1
%endmacro

%ifndef VG_GE4_CONSTS
%define VG_GE4_CONSTS 1
RODATA
align 16
ge4_one:    dq 1, 0
ge4_zero:   dq 0, 0, 0, 0
; the scan's candidate magnitudes j + 1 in four lanes, j = 0..31: one
; compare with a memory operand per entry instead of a copy, a compare
; and an increment of a counter register
ge4_mags:
%assign j 1
%rep 32
    dd j, j, j, j
%assign j j + 1
%endrep
%endif

; COMB name, rows, entries, avx: the comb function (see the top). The
; radix-32 comb (52 rows of 16) scans with SSE2; the radix-64 one (43 rows
; of 32: 43 additions instead of 52) with AVX, three 32-byte steps an
; entry instead of six 16-byte ones. The comb is bound by instruction
; issue: the SSE2 scan of 32 entries made it 1.05-1.08 times slower, the
; AVX one takes 0.865 of the radix-32 comb's time (adx on Zen 5, both
; functions in one process). 43 x 32 entries are 129 KiB of table.
%macro COMB 4
%define CR %2
%define CE %3
%define CV %4
FUNC %1
    PUSH_CALLEE
    sub rsp, G_SIZE + 8         ; entry rsp = 8 mod 16, six pushes: aligned
    mov [rsp + G_COMB], rsi
    mov rcx, rdx                ; digits (the macros take rdx)
    xor eax, eax                ; h = (0, 1, 1, 0)
%assign i 0
%rep 16
    mov [rdi + i], rax
%assign i i + 8
%endrep
    mov qword [rdi + 32], 1
    mov qword [rdi + 64], 1
    mov [rsp + G_DW + 32], rax  ; D's top word, 0 for every addition

    SEL_BEGIN                   ; the first entry: row 0, digit e[0]
    SEL_SCAN 0, CE
    SEL_END
    mov rax, [rsp + G_NEGN]
    mov [rsp + G_NEG], rax
    mov qword [rsp + G_CNT], CR - 1
.row:                           ; row k - 1's addition, row k's select
    add rsi, CE * 96
    inc rcx
    GE_MADD_PIPE
    dec qword [rsp + G_CNT]
    jnz .row                    ; ct: public row counter
    mov rsi, [rsp + G_COMB]     ; the last row (its select reads row 0
    GE_MADD_PIPE                ; and e[CR - 1] again, unused)

    ; wipe the secret frame and the vector registers that held entries
%if CV
    vzeroupper                  ; their upper halves, and back to SSE
%endif
    pxor xmm0, xmm0
%assign i 0
%rep G_SIZE / 16
    movdqa [rsp + i], xmm0
%assign i i + 16
%endrep
    pxor xmm1, xmm1
    pxor xmm2, xmm2
    pxor xmm3, xmm3
    pxor xmm4, xmm4
    pxor xmm5, xmm5
    pxor xmm11, xmm11
    pxor xmm12, xmm12
    pxor xmm13, xmm13
    pxor xmm15, xmm15
    add rsp, G_SIZE + 8
    POP_CALLEE
    ret
ENDFUNC %1
%endmacro

COMB vg_ge4_comb_ %+ TIER, 52, 16, 0
COMB vg_ge4_comb64_ %+ TIER, 43, 32, 1

; Single point operations for the variable-time verification (called per
; operation from C; h at rdi, the other point at rsi). Straight-line code
; like the comb, but the frame is not wiped: verification data is public.
;   void vg_ge4_madd_TIER(vg_ge4_p3 *h, const vg_ge4_niels *q);   h += q
;   void vg_ge4_add_TIER(vg_ge4_p3 *h, const vg_ge4_cached *q);   h += q
;   void vg_ge4_dbl_TIER(vg_ge4_p3 *h);                           h = 2h
;   void vg_ge4_dbl_p2_TIER(vg_ge4_p3 *h);   h = 2h, X Y Z only (T stale)
FUNC vg_ge4_madd_ %+ TIER
    PUSH_CALLEE
    sub rsp, G_SIZE + 8
    GE_MADD_EFGH rsi
    GE_OUT 1
    add rsp, G_SIZE + 8
    POP_CALLEE
    ret
ENDFUNC vg_ge4_madd_ %+ TIER

; add-2008-hwcd-3 (a = -1) with q = (Y+X, Y-X, Z, 2dT) at +0, +32, +64, +96.
FUNC vg_ge4_add_ %+ TIER
    PUSH_CALLEE
    sub rsp, G_SIZE + 8
    FE_SUB rsp + G_A, rdi + 32, rdi             ; Y1 - X1
    FE_MUL rsp + G_A, rsp + G_A, rsi + 32       ; A = (Y1 - X1)(Y2 - X2)
    FE_ADD rsp + G_B, rdi + 32, rdi             ; Y1 + X1
    FE_MUL rsp + G_B, rsp + G_B, rsi            ; B = (Y1 + X1)(Y2 + X2)
    FE_MUL rsp + G_C, rdi + 96, rsi + 96        ; C = T1 2d T2
    FE_MUL rsp + G_D, rdi + 64, rsi + 64
    FE_ADD rsp + G_D, rsp + G_D, rsp + G_D      ; D = 2 Z1 Z2
    GE_EFGH
    GE_OUT 1
    add rsp, G_SIZE + 8
    POP_CALLEE
    ret
ENDFUNC vg_ge4_add_ %+ TIER

FUNC vg_ge4_dbl_ %+ TIER
    PUSH_CALLEE
    sub rsp, G_SIZE + 8
    GE_DBL_EFGH
    GE_OUT 1
    add rsp, G_SIZE + 8
    POP_CALLEE
    ret
ENDFUNC vg_ge4_dbl_ %+ TIER

FUNC vg_ge4_dbl_p2_ %+ TIER
    PUSH_CALLEE
    sub rsp, G_SIZE + 8
    GE_DBL_EFGH
    GE_OUT 0
    add rsp, G_SIZE + 8
    POP_CALLEE
    ret
ENDFUNC vg_ge4_dbl_p2_ %+ TIER
