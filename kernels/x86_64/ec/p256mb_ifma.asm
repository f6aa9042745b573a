; p256mb_ifma.asm: the P-256 fixed-base comb of the ifma tier for eight
; independent scalars at once ("multi-buffer"), one per 64-bit lane of
; AVX-512 IFMA vectors (radix 2^52, p256x52_macros.asm). Secret: every
; digit and every point; no branch or address depends on them (every
; entry of every row is loaded, each lane keeps its own under a compare
; mask; signs and the identity are lane masks). Public: the table, the
; row counter.
;
; C prototype (kernels/src/ec/ec_mb.h):
;   void vg_p256mb_comb_ifma(vg_ec_point r[8], const uint64_t *table,
;                            const int8_t *d);
; r[l] = sum_i d[8 i + l] 32^i G for each lane l, over 52 signed 5-bit
; digits per lane (vg_ec_comb_recode_w, w = 5: digits in [-15, 16]),
; stored row-major: the eight lanes' digits of row i at d + 8 i. table =
; the curve's comb5 (row i: the affine (j + 1) 32^i G, j < 16, Montgomery
; form x 2^256 mod p). r[l] is projective (X ZZZ : Y ZZ : ZZ ZZZ) of the
; lane's XYZZ sum, each coordinate's four low words reduced mod p (the
; words above are not written); the values are x 2^260 read as x 2^256,
; i.e. the point's coordinates times 16, the same projective point. A
; lane whose digits are all zero gives (0 : 0 : 0).
;
; Method. Unlike vg_p256_comb_ifma (eight rows of one scalar in the
; lanes, then a combination), every lane walks all 52 rows of its own
; scalar: per row one scan of the 16 entries (each entry's eight words
; broadcast into the lanes that select it, so the entries arrive already
; transposed), the conversion to radix 2^52 and R = 2^260 (CONV16), y
; negated where d < 0, the mixed addition madd-2008-s (XMADD8) and masked
; moves (a zero digit keeps the lane; a lane still at the identity takes
; the entry).
;
; Why no lane meets an exceptional case of the addition, for a scalar k
; with 1 <= k < n (every ECDSA nonce): before row i the lane holds S G,
; S = sum of its digits below i times 32^k, |S| < 0.52 32^i, and row i
; adds d_i 32^i G with 1 <= |d_i| <= 16. For i <= 50, S -+ d_i 32^i is a
; non-zero integer (|S| < 32^i) of size below 17 32^i < 2^255 < n, so
; never 0 mod n: neither a doubling nor an opposite. Row 51: d_51 <= 2
; and S + d_51 2^255 = k, not 0 mod n; S = d_51 2^255 - m n would need
; (|S| < 2^254) d_51 = 2, m = 1, S = 2^256 - n > 0, but then k = S + 2^256
; >= 2^256. The first non-zero digit meets the identity, which the masks
; handle. Other scalars (k = 0 mod n) may meet the exceptional cases and
; give a wrong point: the ECDSA code never passes them.
%include "x86_64/common/config.asm"

%define ROWS 52                 ; 5-bit digits (the curve's comb5)
%define ENTRIES 16
%define ROW_SHIFT 10            ; 16 entries of x, y (4 + 4 words): 1 KiB

%define VW zmm
%define VB 64
%define BC {1to8}
%include "x86_64/ec/p256x52_macros.asm"

%define EL 320                  ; an element: 5 limb vectors of 64 bytes
; The frame (64-aligned), the layout of vg_p256_comb_ifma's steps.
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
%define F_R_OUT 6720            ; r (public)
%define F_TAB   6728            ; the table (public)
%define F_DIG   6736            ; the digits' address (public)
%define F_STEP  6744            ; the row (public)
%define F_SIZE  6784            ; a multiple of 64

; SEL_ACC c, new, q: lanes k5 of accumulator element c take the new
; value, lanes k6 take q (an element address, or 0: c52_one).
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

; XMADD8: (NX, NY, NZZ, NZZZ) = ACC + (QX, QY) in every lane, generic
; case (madd-2008-s), as in vg_p256_comb_ifma. Bounds (units of p): ACC,
; Q below 2p; P, R, T below 4p; every product below 2p; X3, Y3 folded
; below 2p.
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

; TO64 off, lane, dst: the normalized 5-limb value (below 2p) of one lane
; (limb i the qword at [rsp + off + 8 lane + 64 i]) -> its 4 words reduced
; mod p at the address dst. Clobbers rax, rbx, rcx, rdx, r8-r13.
%macro TO64 3
    mov r8, [rsp + %1 + 8 * %2]
    mov r9, [rsp + %1 + 8 * %2 + 64]
    mov r10, [rsp + %1 + 8 * %2 + 128]
    mov r11, [rsp + %1 + 8 * %2 + 192]
    mov r12, [rsp + %1 + 8 * %2 + 256]
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
    mov [%3], rax
    mov [%3 + 8], rbx
    mov [%3 + 16], rcx
    mov [%3 + 24], rdx
%endmacro

%define PT_SIZE 144             ; sizeof(vg_ec_point): x, y, z of 6 words

FUNC vg_p256mb_comb_ifma
    PUSH_CALLEE
    mov rbp, rsp
    and rsp, -64
    sub rsp, F_SIZE
    mov [rsp + F_R_OUT], rdi
    mov [rsp + F_TAB], rsi
    mov [rsp + F_DIG], rdx
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
align 64
.step:
    ; the row and the lanes' digits: k2 negative, k3 non-zero, |d| in zmm16
    mov rax, [rsp + F_STEP]
    mov rsi, rax
    shl rsi, ROW_SHIFT
    add rsi, [rsp + F_TAB]
    mov rdx, [rsp + F_DIG]
    vpmovsxbq zmm17, [rdx + 8 * rax]
    vpxorq zmm18, zmm18, zmm18
    vpcmpq k2, zmm17, zmm18, 1          ; d < 0
    vpabsq zmm16, zmm17
    vptestmq k3, zmm16, zmm16
    ; the scan: entry e (index + 1 in zmm17) broadcast word by word into
    ; zmm0..7 of the lanes whose |d| is e + 1; zero where d = 0
    vpbroadcastq zmm18, [c52_one64]
    vmovdqa64 zmm17, zmm18
%assign w 0
%rep 8
    vpxorq zmm%[w], zmm%[w], zmm%[w]
%assign w w + 1
%endrep
%assign e 0
%rep ENTRIES
    ; zmm19 = all ones in the selecting lanes; then every word of the
    ; entry is loaded whole (an unmasked broadcast) and ANDed with it: a
    ; masked load could take a different time with an empty mask
    vpcmpeqq k1, zmm16, zmm17
    vpternlogq zmm19{k1}{z}, zmm19, zmm19, 0xff
%assign w 0
%rep 8
    vpternlogq zmm%[w], zmm19, [rsi + 64 * e + 8 * w] {1to8}, 0xf8    ; w | (m & entry)
%assign w w + 1
%endrep
    vpaddq zmm17, zmm17, zmm18
%assign e e + 1
%endrep
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
    ; the addition in every lane (its result is dropped where the lane is
    ; the identity or the digit is zero)
    XMADD8
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
    cmp rax, ROWS
    jb .step                            ; ct: public row counter

    ; projective (X ZZZ : Y ZZ : ZZ ZZZ), then lane by lane to 4 words
    FMUL rsp + F_NX, rsp + F_AX, rsp + F_AZZZ
    FMUL rsp + F_NY, rsp + F_AY, rsp + F_AZZ
    FMUL rsp + F_NZZ, rsp + F_AZZ, rsp + F_AZZZ
    mov rdi, [rsp + F_R_OUT]
%assign l 0
%rep 8
    TO64 F_NX, l, rdi + PT_SIZE * l
    TO64 F_NY, l, rdi + PT_SIZE * l + 48
    TO64 F_NZZ, l, rdi + PT_SIZE * l + 96
%assign l l + 1
%endrep
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
    xor eax, eax
    xor ebx, ebx
    xor ecx, ecx
    xor edx, edx
    xor r8d, r8d
    xor r9d, r9d
    xor r10d, r10d
    xor r11d, r11d
    vzeroupper
    mov rsp, rbp
    POP_CALLEE
    ret
ENDFUNC vg_p256mb_comb_ifma

    RODATA
align 8
c52_one64: dq 1
