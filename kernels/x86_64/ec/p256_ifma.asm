; p256_ifma.asm: the P-256 fixed-base comb of the ifma tier, eight comb
; rows at a time in the eight lanes of AVX-512 IFMA vectors (radix 2^52,
; p256x52_macros.asm). Secret: the digits and every point; no branch or
; address depends on them (every entry of every row is loaded and one is
; kept under a compare mask; signs and the identity are lane masks).
;
; C prototype (kernels/src/ec/ec_asm.h):
;   void vg_p256_comb_ifma(vg_ec_point *r, const uint64_t *table, const int8_t *d);
; r = sum_i d_i 32^i G over the 52 signed 5-bit digits d
; (vg_ec_comb_recode_w, w = 5: d_i in [-15, 16]), table = the curve's
; comb5 (ec_gen_table.c: row i holds the affine (j + 1) 32^i G, j < 16,
; Montgomery form x 2^256 mod p); r in the rows' homogeneous projective
; form, Z = 0 for the identity (then X = 0; the caller sets Y). The other
; tiers' combs take 7-bit digits and 64-entry rows: with eight lanes an
; addition costs less than scanning 64 entries (memory-bound), so 16
; entries a row and 52 additions beat 64 and 37.
;
; Method. Lane j (0..7) accumulates the rows j, j + 8, j + 16, ... in
; XYZZ coordinates (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; ZZ = ZZZ = 0 the
; identity), one row per lane and step, seven steps (rows 52..55 do not
; exist: those lanes scan row 51 with digit 0). The first step adds
; nothing (every lane is the identity: it takes its entry), the last one
; adds in the four live lanes only (ymm). A step: the eight rows'
; scans (each lane's entry |d| of its row), an 8x8 transposition to limb
; vectors, the conversion to radix 2^52 and to Montgomery form with
; R = 2^260 (16 x mod p), y negated where d < 0, the mixed addition
; madd-2008-s (8M + 2S) in all lanes, and masked moves (a zero digit
; keeps the lane; a lane still at the identity takes the entry). Then
; the eight sums are added pairwise in three levels (ymm, four lanes)
; by a formula that also doubles and handles the identity, and the sum
; goes out as (X ZZZ : Y ZZ : ZZ ZZZ): values x 2^260 read as x 2^256
; are the point's coordinates times 16, the same projective point.
;
; Why a lane's mixed addition meets no exceptional case: before row i,
; lane j holds S G with S = sum d_k 32^k over its rows k < i, so
; |S| <= 16 (32^i - 1) / 31 < 0.52 32^i, and the row adds d_i 32^i G,
; 1 <= |d_i| <= 16. S = +-d_i 32^i (mod n) would need S -+ d_i 32^i,
; which is not 0 (its lowest non-zero base-32 digit is one of the d), to
; be a multiple of n, but it is below 17 32^i < 2^255 < n for i <= 50.
; Row 51 (lane 3, with rows 3, 11, ..., 43) has d_51 <= 2 (the top bit
; and a carry) and |S| < 2^220: S -+ d_51 2^255 = +-n or +-2n needs
; d_51 2^255 within 2^220 of n or 2n, and n is 2^224 below 2^256 (2n far
; above). The first non-zero digit of a lane meets the identity, which
; the masks handle. The pairwise additions can meet anything (equal,
; opposite, identity): their formula covers it.
%include "x86_64/common/config.asm"

%define ROWS 52                 ; 5-bit digits (the curve's comb5)
%define ENTRIES 16
%define ROW_SHIFT 10            ; 16 entries of x, y (4 + 4 words): 1 KiB
%define STEPS 7                 ; 8 lanes x 7 >= 52 rows

; ---- the steps: zmm, eight lanes ----
%define VW zmm
%define VB 64
%define BC {1to8}
%include "x86_64/ec/p256x52_macros.asm"

%define EL 320                  ; an element: 5 limb vectors of 64 bytes
; The frame (64-aligned).
%define F_ACC   0               ; X, Y, ZZ, ZZZ: 4 elements
%define F_AX    F_ACC
%define F_AY    F_ACC + EL
%define F_AZZ   F_ACC + 2 * EL
%define F_AZZZ  F_ACC + 3 * EL
%define F_QX    1280            ; the selected entries (x, y)
%define F_QY    1600
%define F_U2    1920            ; the addition's values
%define F_S2    2240
%define F_P     2560
%define F_R     2880
%define F_PP    3200
%define F_RR    3520
%define F_PPP   3840
%define F_QV    4160
%define F_NZZ   4480
%define F_NZZZ  4800
%define F_YP    5120
%define F_NX    5440
%define F_T     5760
%define F_RT    6080
%define F_NY    6400
%define F_ABS   6720            ; |d| of the step's lanes (8 qwords)
%define F_D     6784            ; the digits, padded to 56 with zeros
%define F_R_OUT 6848            ; r (public)
%define F_TAB   6856            ; the table (public)
%define F_STEP  6864            ; the step (public)
%define F_OUT   6880            ; the sum's coordinates, radix 2^64 (3 x 5 words)
%define F_SIZE  7040            ; a multiple of 64

; The combination (ymm, 160-byte elements) reuses F_QX onwards.
%define CEL 160
%define C_A     1280            ; A: X, Y, ZZ, ZZZ
%define C_B     1920            ; B
%define C_O     2560            ; the sum
%define C_T     3200            ; temporaries, 16 elements: up to 5760
%define CT(k)   C_T + CEL * (k)

    RODATA
align 64
c52_one64: dq 1
align 32
c52_pair:  dd 4, 5, 6, 7, 0, 1, 2, 3    ; level 2: lanes 2, 3, 0, 1
           dd 2, 3, 0, 1, 6, 7, 4, 5    ; level 3: lanes 1, 0, 3, 2

; SEL_ACC c, new, q: lanes kA (k5) of accumulator element c take the new
; value, lanes kB (k6) take q (an element address or the constant one:
; q = 0 selects c52_one).
%macro SEL_ACC 3
%assign %%i 0
%rep 5
    vmovdqa64 V(0), [rsp + %1 + VB * %%i]
    vmovdqa64 V(1), [rsp + %2 + VB * %%i]
%ifidn %3, 0
    vpbroadcastq V(2), [c52_one + 8 * %%i]
%else
    vmovdqa64 V(2), [rsp + %3 + VB * %%i]
%endif
    vmovdqa64 V(0){k5}, V(1)
    vmovdqa64 V(0){k6}, V(2)
    vmovdqa64 [rsp + %1 + VB * %%i], V(0)
%assign %%i %%i + 1
%endrep
%endmacro

; CONV16 d, w0, w1, w2, w3: the 4-word values (x 2^256 mod p, below p) in
; V(w0..w3) -> V(d..d+4) normalized and below 2p, = 16 x 2^256 = x 2^260
; mod p: limb k is the bits 52 k - 4 .. 52 k + 47 of the value, then FOLD.
; Uses V(29).
%macro CONV16 5
%assign %%d0 %1
%assign %%d1 %1 + 1
%assign %%d2 %1 + 2
%assign %%d3 %1 + 3
%assign %%d4 %1 + 4
    vpsllq V(%%d0), V(%2), 4
    vpandq V(%%d0), V(%%d0), [c52_m52] BC
    vpsrlq V(%%d1), V(%2), 48
    vpsllq V(29), V(%3), 16
    vpternlogq V(%%d1), V(29), [c52_m52] BC, 0xa8     ; (d | t) & m
    vpsrlq V(%%d2), V(%3), 36
    vpsllq V(29), V(%4), 28
    vpternlogq V(%%d2), V(29), [c52_m52] BC, 0xa8
    vpsrlq V(%%d3), V(%4), 24
    vpsllq V(29), V(%5), 40
    vpternlogq V(%%d3), V(29), [c52_m52] BC, 0xa8
    vpsrlq V(%%d4), V(%5), 12
    FOLD %1
%endmacro

; One step's scan: lane j (0..7) keeps in zmm(24 + j) the entry of the
; row at r(8 + j) whose index + 1 is |d_j| (zmm(16 + j), broadcast),
; zero if none; every entry of the eight rows is loaded.
%macro SCAN8 0
    vpbroadcastq zmm1, [c52_one64]
    vmovdqa64 zmm0, zmm1                ; candidate index + 1
%assign %%j 0
%rep 8
%assign %%r 24 + %%j
    vpxorq zmm%[%%r], zmm%[%%r], zmm%[%%r]
%assign %%j %%j + 1
%endrep
    xor edx, edx
    mov ecx, ENTRIES / 4
%%scan:
%rep 4
%assign %%j 0
%rep 8
%assign %%d 16 + %%j
%assign %%e 24 + %%j
%assign %%b 8 + %%j
    vpcmpeqq k1, zmm%[%%d], zmm0
    vmovdqu64 zmm2, [r%[%%b] + rdx]
    vmovdqa64 zmm%[%%e]{k1}, zmm2
%assign %%j %%j + 1
%endrep
    vpaddq zmm0, zmm0, zmm1
    add rdx, 64
%endrep
    dec ecx
    jnz %%scan                          ; ct: public entry counter
%endmacro

; TRANSPOSE8: zmm24..31 (lane j's entry: x0..x3, y0..y3) -> zmm0..7
; (word k of every lane), through zmm8..15.
%macro TRANSPOSE8 0
    vpunpcklqdq zmm8, zmm24, zmm25
    vpunpckhqdq zmm9, zmm24, zmm25
    vpunpcklqdq zmm10, zmm26, zmm27
    vpunpckhqdq zmm11, zmm26, zmm27
    vpunpcklqdq zmm12, zmm28, zmm29
    vpunpckhqdq zmm13, zmm28, zmm29
    vpunpcklqdq zmm14, zmm30, zmm31
    vpunpckhqdq zmm15, zmm30, zmm31
    vshufi64x2 zmm24, zmm8, zmm10, 0x88
    vshufi64x2 zmm25, zmm8, zmm10, 0xdd
    vshufi64x2 zmm26, zmm9, zmm11, 0x88
    vshufi64x2 zmm27, zmm9, zmm11, 0xdd
    vshufi64x2 zmm28, zmm12, zmm14, 0x88
    vshufi64x2 zmm29, zmm12, zmm14, 0xdd
    vshufi64x2 zmm30, zmm13, zmm15, 0x88
    vshufi64x2 zmm31, zmm13, zmm15, 0xdd
    vshufi64x2 zmm0, zmm24, zmm28, 0x88
    vshufi64x2 zmm4, zmm24, zmm28, 0xdd
    vshufi64x2 zmm2, zmm25, zmm29, 0x88
    vshufi64x2 zmm6, zmm25, zmm29, 0xdd
    vshufi64x2 zmm1, zmm26, zmm30, 0x88
    vshufi64x2 zmm5, zmm26, zmm30, 0xdd
    vshufi64x2 zmm3, zmm27, zmm31, 0x88
    vshufi64x2 zmm7, zmm27, zmm31, 0xdd
%endmacro

; XMADD8: (NX, NY, NZZ, NZZZ) = ACC + (QX, QY) in every lane, generic
; case (madd-2008-s). Bounds (units of p): ACC, Q below 2p; P, R, T below
; 4p; every product below 2p; X3, Y3 folded below 2p.
%macro XMADD8 0
    FMUL rsp + F_U2, rsp + F_QX, rsp + F_AZZ          ; U2 = x ZZ1
    FMUL rsp + F_S2, rsp + F_QY, rsp + F_AZZZ         ; S2 = y ZZZ1
    SUBK 0, rsp + F_U2, rsp + F_AX, c52_2p            ; P = U2 - X1
    NORM 0
    ST5 rsp + F_P, 0
    SUBK 0, rsp + F_S2, rsp + F_AY, c52_2p            ; R = S2 - Y1
    NORM 0
    ST5 rsp + F_R, 0
    FSQR rsp + F_PP, rsp + F_P                        ; PP
    FSQR rsp + F_RR, rsp + F_R                        ; R^2
    FMUL rsp + F_PPP, rsp + F_P, rsp + F_PP           ; PPP
    FMUL rsp + F_QV, rsp + F_AX, rsp + F_PP           ; Q = X1 PP
    FMUL rsp + F_NZZ, rsp + F_AZZ, rsp + F_PP         ; ZZ3 = ZZ1 PP
    FMUL rsp + F_NZZZ, rsp + F_AZZZ, rsp + F_PPP      ; ZZZ3 = ZZZ1 PPP
    FMUL rsp + F_YP, rsp + F_AY, rsp + F_PPP          ; Y1 PPP
    SUBK 0, rsp + F_RR, rsp + F_PPP, c52_8p           ; X3 = R^2 - PPP - 2Q
    SUBR 0, rsp + F_QV
    SUBR 0, rsp + F_QV
    NORM 0
    FOLD 0
    ST5 rsp + F_NX, 0
    SUBK 0, rsp + F_QV, rsp + F_NX, c52_2p            ; Q - X3
    NORM 0
    ST5 rsp + F_T, 0
    FMUL rsp + F_RT, rsp + F_R, rsp + F_T             ; R (Q - X3)
    SUBK 0, rsp + F_RT, rsp + F_YP, c52_2p            ; Y3 = R (Q - X3) - Y1 PPP
    NORM 0
    FOLD 0
    ST5 rsp + F_NY, 0
%endmacro

; ---- the combination: ymm, four lanes ----

; UADD a, b, o: o = a + b (frame offsets of XYZZ points, 160-byte
; elements, each coordinate below 2p) in every lane, for any a and b:
; madd's general formula add-2008-s, whose second half is also the
; doubling dbl-2008-s-1 when fed (2 Y1, 3 (X1 - ZZ1)(X1 + ZZ1), X1, Y1,
; ZZ1, ZZZ1) instead of (P, R, U1, S1, ZZ1 ZZ2, ZZZ1 ZZZ2) and without
; the PPP term of X3: the lanes where a = b (P = R = 0 mod p) take those.
; Lanes where a (resp. b) is the identity (ZZ = 0 mod p) take b (a);
; a = -b gives ZZ3 = 0, the identity. Masks: k1 doubling, k2 its
; complement, k3, k4 the identities.
%define C_U1   CT(0)
%define C_U2   CT(1)
%define C_S1   CT(2)
%define C_S2   CT(3)
%define C_Z12  CT(4)
%define C_ZZ12 CT(5)
%define C_XM   CT(6)
%define C_XP   CT(7)
%define C_MD   CT(8)
%define C_PU   CT(9)
%define C_RU   CT(10)
%define C_PP   CT(11)
%define C_RR   CT(12)
%define C_PPP  CT(13)
%define C_QV   CT(14)
%define C_SP   CT(15)
%macro UADD 3
%define %%AX rsp + %1
%define %%AY rsp + %1 + CEL
%define %%AZZ rsp + %1 + 2 * CEL
%define %%AZZZ rsp + %1 + 3 * CEL
%define %%BX rsp + %2
%define %%BY rsp + %2 + CEL
%define %%BZZ rsp + %2 + 2 * CEL
%define %%BZZZ rsp + %2 + 3 * CEL
%define %%OX rsp + %3
%define %%OY rsp + %3 + CEL
%define %%OZZ rsp + %3 + 2 * CEL
%define %%OZZZ rsp + %3 + 3 * CEL
    FMUL rsp + C_U1, %%AX, %%BZZ                      ; U1 = X1 ZZ2
    FMUL rsp + C_U2, %%BX, %%AZZ                      ; U2 = X2 ZZ1
    FMUL rsp + C_S1, %%AY, %%BZZZ                     ; S1 = Y1 ZZZ2
    FMUL rsp + C_S2, %%BY, %%AZZZ                     ; S2 = Y2 ZZZ1
    FMUL rsp + C_Z12, %%AZZ, %%BZZ                    ; ZZ1 ZZ2
    FMUL rsp + C_ZZ12, %%AZZZ, %%BZZZ                 ; ZZZ1 ZZZ2
    SUBK 0, %%AX, %%AZZ, c52_2p                       ; X1 - ZZ1
    NORM 0
    ST5 rsp + C_XM, 0
    LD5 0, %%AX                                       ; X1 + ZZ1
    ADDR 0, %%AZZ
    NORM 0
    ST5 rsp + C_XP, 0
    FMUL rsp + C_MD, rsp + C_XM, rsp + C_XP           ; X1^2 - ZZ1^2
    ; P = U2 - U1, R = S2 - S1 (below 4p), and the doubling lanes k1
    SUBK 0, rsp + C_U2, rsp + C_U1, c52_2p
    NORM 0
    ISZERO k5, 0, 4
    ST5 rsp + C_PU, 0
    SUBK 0, rsp + C_S2, rsp + C_S1, c52_2p
    NORM 0
    ISZERO k6, 0, 4
    ST5 rsp + C_RU, 0
    kandw k1, k5, k6
    knotw k2, k1
    ; the doubling's values where k1: PU = 2 Y1, RU = 3 (X1^2 - ZZ1^2)
    ; folded, and U1, S1, ZZ1 ZZ2, ZZZ1 ZZZ2 replaced by X1, Y1, ZZ1, ZZZ1
    LD5 0, %%AY
    ADDR 0, %%AY
    NORM 0
    LD5 5, rsp + C_MD
    ADDR 5, rsp + C_MD
    ADDR 5, rsp + C_MD
    NORM 5
    FOLD 5
    C_PICK rsp + C_PU, 0
    C_PICK rsp + C_RU, 5
    LD5 0, %%AX
    C_PICK rsp + C_U1, 0
    LD5 0, %%AY
    C_PICK rsp + C_S1, 0
    LD5 0, %%AZZ
    C_PICK rsp + C_Z12, 0
    LD5 0, %%AZZZ
    C_PICK rsp + C_ZZ12, 0
    FSQR rsp + C_PP, rsp + C_PU                       ; PP
    FSQR rsp + C_RR, rsp + C_RU                       ; R^2
    FMUL rsp + C_PPP, rsp + C_PU, rsp + C_PP          ; PPP
    FMUL rsp + C_QV, rsp + C_U1, rsp + C_PP           ; Q = U1 PP
    FMUL rsp + C_Z12, rsp + C_Z12, rsp + C_PP         ; ZZ3
    FMUL rsp + C_ZZ12, rsp + C_ZZ12, rsp + C_PPP      ; ZZZ3
    FMUL rsp + C_SP, rsp + C_S1, rsp + C_PPP          ; S1 PPP
    ; X3 = R^2 - 2Q - (PPP unless doubling)
    SUBK 0, rsp + C_RR, rsp + C_QV, c52_8p
    SUBR 0, rsp + C_QV
%assign %%i 0
%rep 5
%assign %%r %%i
    vmovdqa64 V(5), [rsp + C_PPP + VB * %%i]
    vpsubq V(%%r){k2}, V(%%r), V(5)
%assign %%i %%i + 1
%endrep
    NORM 0
    FOLD 0
    ST5 rsp + C_XM, 0                                 ; X3 (XM is free)
    SUBK 0, rsp + C_QV, rsp + C_XM, c52_2p            ; Q - X3
    NORM 0
    ST5 rsp + C_XP, 0
    FMUL rsp + C_MD, rsp + C_RU, rsp + C_XP           ; R (Q - X3)
    SUBK 0, rsp + C_MD, rsp + C_SP, c52_2p            ; Y3
    NORM 0
    FOLD 0
    ST5 rsp + C_XP, 0
    ; the identities: a's lanes (k3) take b, b's (k4) take a
    LD5 0, %%AZZ
    ISZERO k3, 0, 2
    LD5 0, %%BZZ
    ISZERO k4, 0, 2
    C_OUT %%OX, rsp + C_XM, %%AX, %%BX
    C_OUT %%OY, rsp + C_XP, %%AY, %%BY
    C_OUT %%OZZ, rsp + C_Z12, %%AZZ, %%BZZ
    C_OUT %%OZZZ, rsp + C_ZZ12, %%AZZZ, %%BZZZ
%endmacro

; C_PICK e, r: element e = V(r..r+4) in the lanes k1, unchanged elsewhere.
%macro C_PICK 2
%assign %%i 0
%rep 5
%assign %%r %2 + %%i
    vmovdqa64 V(10), [%1 + VB * %%i]
    vmovdqa64 V(10){k1}, V(%%r)
    vmovdqa64 [%1 + VB * %%i], V(10)
%assign %%i %%i + 1
%endrep
%endmacro

; C_OUT o, s, a, b: o = s, then a in the lanes k4, then b in the lanes k3.
%macro C_OUT 4
%assign %%i 0
%rep 5
    vmovdqa64 V(10), [%2 + VB * %%i]
    vmovdqa64 V(11), [%3 + VB * %%i]
    vmovdqa64 V(12), [%4 + VB * %%i]
    vmovdqa64 V(10){k4}, V(11)
    vmovdqa64 V(10){k3}, V(12)
    vmovdqa64 [%1 + VB * %%i], V(10)
%assign %%i %%i + 1
%endrep
%endmacro

; TO64 off: the normalized 5-limb value (below 2p) whose limbs are the
; qwords at [rsp + off + 32 i] -> its 4 words reduced mod p at the
; address %2. Clobbers rax, rbx, rcx, rdx, r8-r13.
%macro TO64 2
    mov r8, [rsp + %1]
    mov r9, [rsp + %1 + 32]
    mov r10, [rsp + %1 + 64]
    mov r11, [rsp + %1 + 96]
    mov r12, [rsp + %1 + 128]
    mov rax, r9
    shl rax, 52
    or rax, r8                          ; w0 = l0 | l1 << 52
    shr r9, 12
    mov rbx, r10
    shl rbx, 40
    or rbx, r9                          ; w1 = l1 >> 12 | l2 << 40
    shr r10, 24
    mov rcx, r11
    shl rcx, 28
    or rcx, r10                         ; w2 = l2 >> 24 | l3 << 28
    shr r11, 36
    mov rdx, r12
    shl rdx, 16
    or rdx, r11                         ; w3 = l3 >> 36 | l4 << 16
    shr r12, 48                         ; w4: 0 or 1
    ; minus p unless that borrows
    mov r8, rax
    mov r9, rbx
    mov r10, rcx
    mov r11, rdx
    sub r8, -1
    mov r13d, 0xffffffff
    sbb r9, r13
    sbb r10, 0
    mov r13, 0xffffffff00000001
    sbb r11, r13
    sbb r12, 0                          ; CF: below p, keep it
    cmovnc rax, r8
    cmovnc rbx, r9
    cmovnc rcx, r10
    cmovnc rdx, r11
    mov [%2], rax
    mov [%2 + 8], rbx
    mov [%2 + 16], rcx
    mov [%2 + 24], rdx
%endmacro

FUNC vg_p256_comb_ifma
    PUSH_CALLEE
    mov rbp, rsp
    and rsp, -64
    sub rsp, F_SIZE
    mov [rsp + F_R_OUT], rdi
    mov [rsp + F_TAB], rsi
    ; the 52 digits, padded with zeros to 56
%assign j 0
%rep 6
    mov rax, [rdx + 8 * j]
    mov [rsp + F_D + 8 * j], rax
%assign j j + 1
%endrep
    mov eax, [rdx + 48]
    mov [rsp + F_D + 48], rax
    ; every lane at the identity: ACC = 0, k4 = all lanes
    vpxorq zmm0, zmm0, zmm0
%assign j 0
%rep 4 * EL / 64
    vmovdqa64 [rsp + F_ACC + 64 * j], zmm0
%assign j j + 1
%endrep
    mov eax, 0xff
    kmovw k4, eax
    mov qword [rsp + F_STEP], 0
.step:
    ; lane j's row: 8 s + j, at most ROWS - 1 (public)
    mov rsi, [rsp + F_TAB]
    mov rax, [rsp + F_STEP]
    shl rax, 3
%assign j 0
%rep 8
    lea rcx, [rax + j]
    mov edx, ROWS - 1
    cmp rcx, rdx
    cmova rcx, rdx
    shl rcx, ROW_SHIFT
%assign rj 8 + j
    lea r%[rj], [rsi + rcx]
%assign j j + 1
%endrep
    ; the digits: k2 negative, k3 non-zero, |d| broadcast per lane
    vpmovsxbq zmm3, [rsp + F_D + rax]
    vpxorq zmm4, zmm4, zmm4
    vpcmpq k2, zmm3, zmm4, 1            ; d < 0
    vpabsq zmm4, zmm3
    vptestmq k3, zmm4, zmm4
    vmovdqa64 [rsp + F_ABS], zmm4
%assign j 0
%rep 8
%assign rj 16 + j
    vpbroadcastq zmm%[rj], [rsp + F_ABS + 8 * j]
%assign j j + 1
%endrep
    SCAN8
    TRANSPOSE8
    CONV16 10, 0, 1, 2, 3
    ST5 rsp + F_QX, 10
    CONV16 15, 4, 5, 6, 7
    ; y = 2p - y where d < 0
%assign i 0
%rep 5
%assign ra 20 + i
%assign rb 15 + i
    vpbroadcastq zmm%[ra], [c52_2p + 8 * i]
    vpsubq zmm%[ra], zmm%[ra], zmm%[rb]
%assign i i + 1
%endrep
    NORM 20
%assign i 0
%rep 5
%assign ra 20 + i
%assign rb 15 + i
    vmovdqa64 zmm%[rb]{k2}, zmm%[ra]
%assign i i + 1
%endrep
    ST5 rsp + F_QY, 15
    ; step 0: every lane is the identity, no addition; the last step:
    ; lanes 0-3 only (rows 48..51), the addition in ymm (public branches)
    mov rax, [rsp + F_STEP]
    test rax, rax
    jz .added                           ; ct: public step counter
    cmp rax, STEPS - 1
    je .last                            ; ct: public step counter
    XMADD8
    jmp .added
.last:
%define VW ymm
%define BC {1to4}
    XMADD8                              ; the low halves of the 64-byte slots
%define VW zmm
%define BC {1to8}
.added:
    ; lanes with a digit: the sum (k5), or the entry where the lane is
    ; still the identity (k6); then those lanes are not the identity
    kandnw k5, k4, k3
    kandw k6, k4, k3
    kandnw k4, k3, k4
    SEL_ACC F_AX, F_NX, F_QX
    SEL_ACC F_AY, F_NY, F_QY
    SEL_ACC F_AZZ, F_NZZ, 0
    SEL_ACC F_AZZZ, F_NZZZ, 0
    mov rax, [rsp + F_STEP]
    inc rax
    mov [rsp + F_STEP], rax
    cmp rax, STEPS
    jb .step                            ; ct: public step counter

    ; ---- the eight sums to one: lanes 0-3 + lanes 4-7, then 0,1 + 2,3,
    ; then 0 + 1 (ymm from here) ----
%define VW ymm
%define VB 32
%define BC {1to4}
%assign i 0
%rep 20
    vmovdqa64 zmm0, [rsp + F_ACC + 64 * i]
    vextracti64x4 ymm1, zmm0, 1
    vmovdqa64 [rsp + C_A + 32 * i], ymm0
    vmovdqa64 [rsp + C_B + 32 * i], ymm1
%assign i i + 1
%endrep
    mov qword [rsp + F_STEP], 0         ; the level (public)
.level:
    UADD C_A, C_B, C_O
    mov rax, [rsp + F_STEP]
    inc rax
    mov [rsp + F_STEP], rax
    cmp rax, 3
    je .combined                        ; ct: public level counter
    ; the next level's pairs: the sums against their lanes permuted
    shl rax, 5
    lea rcx, [rel c52_pair]
    vmovdqa64 ymm2, [rcx + rax - 32]
%assign i 0
%rep 20
    vmovdqa64 ymm0, [rsp + C_O + 32 * i]
    vpermd ymm1, ymm2, ymm0
    vmovdqa64 [rsp + C_A + 32 * i], ymm0
    vmovdqa64 [rsp + C_B + 32 * i], ymm1
%assign i i + 1
%endrep
    jmp .level
.combined:
    ; (X ZZZ, Y ZZ, ZZ ZZZ) of lane 0 in lanes 0, 1, 2 of one product
%assign i 0
%rep 5
    vpbroadcastq ymm0, [rsp + C_O + 32 * i]             ; X
    vpbroadcastq ymm1, [rsp + C_O + CEL + 32 * i]       ; Y
    vpbroadcastq ymm2, [rsp + C_O + 2 * CEL + 32 * i]   ; ZZ
    vpbroadcastq ymm3, [rsp + C_O + 3 * CEL + 32 * i]   ; ZZZ
    vpblendd ymm4, ymm0, ymm1, 0x0c     ; X, Y, X, X
    vpblendd ymm4, ymm4, ymm2, 0x30     ; X, Y, ZZ, X
    vpblendd ymm5, ymm3, ymm2, 0x0c     ; ZZZ, ZZ, ZZZ, ZZZ
    vmovdqa64 [rsp + C_A + 32 * i], ymm4
    vmovdqa64 [rsp + C_B + 32 * i], ymm5
%assign i i + 1
%endrep
    FMUL rsp + C_O, rsp + C_A, rsp + C_B
    mov rdi, [rsp + F_R_OUT]
    TO64 C_O, rdi
    TO64 C_O + 8, rdi + 48
    TO64 C_O + 16, rdi + 96
    ; wipe the frame, the vector and mask registers (secret)
    vpxorq zmm0, zmm0, zmm0
%assign j 0
%rep F_SIZE / 64
    vmovdqa64 [rsp + 64 * j], zmm0
%assign j j + 1
%endrep
    vzeroall
%assign j 16
%rep 16
    vpxorq zmm%[j], zmm%[j], zmm%[j]
%assign j j + 1
%endrep
    kxorw k1, k1, k1
    kxorw k2, k2, k2
    kxorw k3, k3, k3
    kxorw k4, k4, k4
    kxorw k5, k5, k5
    kxorw k6, k6, k6
    kxorw k7, k7, k7
    vzeroupper
    mov rsp, rbp
    POP_CALLEE
    ret
ENDFUNC vg_p256_comb_ifma
