; p384mb_ifma.asm: the P-384 fixed-base comb of the ifma tier for eight
; independent scalars at once ("multi-buffer"), one per 64-bit lane of
; AVX-512 IFMA vectors. Secret: every digit and every point; no branch
; or address depends on them (every entry of every row is loaded whole,
; each lane keeps its own under a mask vector; signs and the identity are
; lane masks). Public: the table, the row counter.
;
; C prototype (kernels/src/ec/ec_mb.h):
;   void vg_p384mb_comb_ifma(uint64_t *out, const uint64_t *table,
;                            const int8_t *d);
; For each lane l the sum S_l = sum_i d[8 i + l] 128^i G over 55 signed
; 7-bit digits per lane (vg_ec_comb_recode: digits in [-63, 64]), stored
; row-major (the eight lanes' digits of row i at d + 8 i); table = the
; curve's comb (row i: the affine (j + 1) 128^i G, j < 64, x then y of 6
; words, Montgomery form x 2^384 mod p). out: the projective
; (X ZZZ : Y ZZ : ZZ ZZZ) of each lane's XYZZ sum, three elements of 8
; limb vectors (element c, limb i, lane l at out[64 c + 8 i + l]), radix
; 2^52, limbs below 2^52, each value below 2p and equal mod p to the
; coordinate times 2^384 (the 64-bit rows' Montgomery form; the caller
; reduces and packs). A lane whose digits are all zero gives 0.
;
; Arithmetic. Eight 52-bit limbs (radix 2^52, one zmm per limb), generic
; Montgomery multiplication with R = 2^416 and -p^-1 = 2^32 + 1 mod 2^52.
; Values stay below 18p (< 2^389) between operations, so a product
; (a b + U p) / R < 2^362 + p < 2p needs no final subtraction; a
; difference a - b is a + Kp - b with K = 8 or 16 (limbs of Kp raised by
; 2^53 below, the borrows taken from the limb above) and signed carries.
; Table entries (x 2^384) enter as x 2^416 by one product with
; 2^448 mod p; the output leaves by one with 2^384 mod p.
;
; Method: every lane walks all 55 rows of its own scalar: per row the scan
; of the 64 entries, the conversion, y negated where d < 0, the mixed
; addition madd-2008-s in XYZZ, and masked moves (a zero digit keeps the
; lane; a lane still at the identity takes the entry).
;
; Why no lane meets an exceptional case of the addition, for 1 <= k < n
; (every ECDSA nonce): before row i a lane holds S G, |S| < 0.51 128^i;
; row i adds d 128^i G, 1 <= |d| <= 64. For i <= 53, S -+ d 128^i is a
; non-zero integer below 65 128^i < 2^378 < n in size: never 0 mod n.
; Row 54: S + d 2^378 = k is not 0 mod n; S = d 2^378 - m n with
; |S| < 2^377 needs m = 1, d = 64 (2^384 - n < 2^377), and then
; k = 2^385 - n > n. Other scalars may give a wrong point.
%include "x86_64/common/config.asm"

%define ROWS 55
%define ENTRIES 64
%define ENTRY 96                ; x, y: 12 words
%define ROW_BYTES 6144
%define L 8                     ; limbs
%define EL 512                  ; an element: 8 limb vectors of 64 bytes

%define F_AX    0
%define F_AY    EL
%define F_AZZ   2 * EL
%define F_AZZZ  3 * EL
%define F_QX    4 * EL
%define F_QY    5 * EL
%define F_U2    6 * EL
%define F_S2    7 * EL
%define F_P     8 * EL
%define F_R     9 * EL
%define F_PP    10 * EL
%define F_RR    11 * EL
%define F_PPP   12 * EL
%define F_QV    13 * EL
%define F_NZZ   14 * EL
%define F_NZZZ  15 * EL
%define F_YP    16 * EL
%define F_NX    17 * EL
%define F_T     18 * EL
%define F_RT    19 * EL
%define F_NY    20 * EL
%define F_R_OUT 21 * EL         ; out (public)
%define F_TAB   21 * EL + 8     ; the table (public)
%define F_DIG   21 * EL + 16    ; the digits' address (public)
%define F_STEP  21 * EL + 24    ; the row (public)
%define F_SIZE  21 * EL + 64

    RODATA
align 64
q52_m52:  dq 0x000fffffffffffff
q52_k0:   dq 0x0000000100000001     ; -p^-1 mod 2^52
q52_one64: dq 1
q52_p:    dq 0x00000000ffffffff, 0x000ff00000000000, 0x000ffffffeffffff, 0x000fffffffffffff
          dq 0x000fffffffffffff, 0x000fffffffffffff, 0x000fffffffffffff, 0x00000000000fffff
q52_c448: dq 0, 0x000ff00000001000, 0x000fffffffffffff, 0x000000100000000f, 0, 0, 0, 0
q52_c384: dq 0x000fffff00000001, 0x00000fffffffffff, 0x0000000001000000, 0, 0, 0, 0, 0
q52_one:  dq 0x0000000100000000, 0x000ffffffffff000, 0x0000000000ffffff, 0x0000000000000010
          dq 0, 0, 0, 0
q52_k8p:  dq 0x00200007fffffff8, 0x002f7ffffffffffe, 0x002ffffff7fffffd, 0x002ffffffffffffd
          dq 0x002ffffffffffffd, 0x002ffffffffffffd, 0x002ffffffffffffd, 0x00000000007ffffd
q52_k16p: dq 0x0020000ffffffff0, 0x002efffffffffffe, 0x002fffffeffffffd, 0x002ffffffffffffd
          dq 0x002ffffffffffffd, 0x002ffffffffffffd, 0x002ffffffffffffd, 0x0000000000fffffd

; LD8 r, E / ST8 E, r: the eight limb vectors of E to zmm(r..r+7) and back.
%macro LD8 2
%assign %%i 0
%rep L
%assign %%r %1 + %%i
    vmovdqa64 zmm%[%%r], [%2 + 64 * %%i]
%assign %%i %%i + 1
%endrep
%endmacro
%macro ST8 2
%assign %%i 0
%rep L
%assign %%r %2 + %%i
    vmovdqa64 [%1 + 64 * %%i], zmm%[%%r]
%assign %%i %%i + 1
%endrep
%endmacro

; SNORM8 r, t: signed carries up zmm(r..r+7) (a non-negative value):
; limbs 0..6 below 2^52 after it, the top one keeps the rest. Uses zmm(t).
%macro SNORM8 2
%assign %%i 0
%rep L - 1
%assign %%a %1 + %%i
%assign %%b %1 + %%i + 1
    vpsraq zmm%[%2], zmm%[%%a], 52
    vpandq zmm%[%%a], zmm%[%%a], [q52_m52] {1to8}
    vpaddq zmm%[%%b], zmm%[%%b], zmm%[%2]
%assign %%i %%i + 1
%endrep
%endmacro

; SUBK r, a, b, K: zmm(r..r+7) = a + K - b (element addresses, K a
; constant's label), then the signed carries.
%macro SUBK 4
%assign %%i 0
%rep L
%assign %%r %1 + %%i
    vmovdqa64 zmm%[%%r], [%2 + 64 * %%i]
    vpaddq zmm%[%%r], zmm%[%%r], [%4 + 8 * %%i] {1to8}
    vpsubq zmm%[%%r], zmm%[%%r], [%3 + 64 * %%i]
%assign %%i %%i + 1
%endrep
    SNORM8 %1, 31
%endmacro

; SUBR r, b: zmm(r..r+7) -= b (an element address), no carries.
%macro SUBR 2
%assign %%i 0
%rep L
%assign %%r %1 + %%i
    vpsubq zmm%[%%r], zmm%[%%r], [%2 + 64 * %%i]
%assign %%i %%i + 1
%endrep
%endmacro

; MULR: zmm16..23 = zmm0..7 times zmm8..15 times 2^-416 mod p (inputs
; normalized, below 18p; the result normalized, below 2p). Columns in
; zmm16..31, zmm0 the Montgomery digit after the products, zmm1 a carry.
%macro MULR 0
%assign %%k 16
%rep 16
    vpxorq zmm%[%%k], zmm%[%%k], zmm%[%%k]
%assign %%k %%k + 1
%endrep
%assign %%c 0
%rep 15
%assign %%i 0
%rep L
%assign %%j %%c - %%i
%if %%j >= 0 && %%j < L
%assign %%rb 8 + %%j
%assign %%tl 16 + %%c
%assign %%th 17 + %%c
    vpmadd52luq zmm%[%%tl], zmm%[%%i], zmm%[%%rb]
    vpmadd52huq zmm%[%%th], zmm%[%%i], zmm%[%%rb]
%endif
%assign %%i %%i + 1
%endrep
%assign %%c %%c + 1
%endrep
%assign %%i 0
%rep L
%assign %%t0 16 + %%i
%assign %%t1 17 + %%i
    vpxorq zmm0, zmm0, zmm0
    vpmadd52luq zmm0, zmm%[%%t0], [q52_k0] {1to8}       ; u
%assign %%j 0
%rep L
%assign %%tl 16 + %%i + %%j
%assign %%th 17 + %%i + %%j
    vpmadd52luq zmm%[%%tl], zmm0, [q52_p + 8 * %%j] {1to8}
%if %%th <= 31
    vpmadd52huq zmm%[%%th], zmm0, [q52_p + 8 * %%j] {1to8}
%endif
%assign %%j %%j + 1
%endrep
    vpsrlq zmm1, zmm%[%%t0], 52
    vpaddq zmm%[%%t1], zmm%[%%t1], zmm1
%assign %%i %%i + 1
%endrep
    SNORM8 24, 0
%endmacro

; FMUL d, a, b: element d = a b 2^-416 (element addresses; d may be a or b;
; b may be a constant's label).
%macro FMUL 3
    LD8 0, %2
    LD8 8, %3
    MULR
    ST8 %1, 24
%endmacro
%macro FMULC 3
    LD8 0, %2
%assign %%i 0
%rep L
%assign %%r 8 + %%i
    vpbroadcastq zmm%[%%r], [%3 + 8 * %%i]
%assign %%i %%i + 1
%endrep
    MULR
    ST8 %1, 24
%endmacro

; SEL_ACC c, new, q: lanes k5 of accumulator element c take the new
; value, lanes k6 take q (an element address, or 0: the constant one).
%macro SEL_ACC 3
%assign %%i 0
%rep L
    vmovdqa64 zmm0, [rsp + %1 + 64 * %%i]
    vmovdqa64 zmm1, [rsp + %2 + 64 * %%i]
%ifidn %3, 0
    vpbroadcastq zmm2, [q52_one + 8 * %%i]
%else
    vmovdqa64 zmm2, [rsp + %3 + 64 * %%i]
%endif
    vmovdqa64 zmm0{k5}, zmm1
    vmovdqa64 zmm0{k6}, zmm2
    vmovdqa64 [rsp + %1 + 64 * %%i], zmm0
%assign %%i %%i + 1
%endrep
%endmacro

; SPLIT e, w: the 6-word value in zmm(w..w+5) -> 52-bit limbs stored at
; element e (raw, then the caller converts). Uses zmm16..23.
%macro SPLIT 2
%assign %%w0 %2
%assign %%w1 %2 + 1
%assign %%w2 %2 + 2
%assign %%w3 %2 + 3
%assign %%w4 %2 + 4
%assign %%w5 %2 + 5
    vpandq zmm16, zmm%[%%w0], [q52_m52] {1to8}
    vpsrlq zmm17, zmm%[%%w0], 52
    vpsllq zmm23, zmm%[%%w1], 12
    vpternlogq zmm17, zmm23, [q52_m52] {1to8}, 0xa8
    vpsrlq zmm18, zmm%[%%w1], 40
    vpsllq zmm23, zmm%[%%w2], 24
    vpternlogq zmm18, zmm23, [q52_m52] {1to8}, 0xa8
    vpsrlq zmm19, zmm%[%%w2], 28
    vpsllq zmm23, zmm%[%%w3], 36
    vpternlogq zmm19, zmm23, [q52_m52] {1to8}, 0xa8
    vpsrlq zmm20, zmm%[%%w3], 16
    vpsllq zmm23, zmm%[%%w4], 48
    vpternlogq zmm20, zmm23, [q52_m52] {1to8}, 0xa8
    vpsrlq zmm21, zmm%[%%w4], 4
    vpandq zmm21, zmm21, [q52_m52] {1to8}
    vpsrlq zmm22, zmm%[%%w4], 56
    vpsllq zmm23, zmm%[%%w5], 8
    vpternlogq zmm22, zmm23, [q52_m52] {1to8}, 0xa8
    vpsrlq zmm23, zmm%[%%w5], 44
    ST8 %1, 16
%endmacro

FUNC vg_p384mb_comb_ifma
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
    vmovdqa64 [rsp + 64 * j], zmm0
%assign j j + 1
%endrep
    mov eax, 0xff
    kmovw k4, eax
    mov qword [rsp + F_STEP], 0
align 64
.step:
    ; the row and the lanes' digits: k2 negative, k3 non-zero, |d| in zmm15
    mov rax, [rsp + F_STEP]
    imul rsi, rax, ROW_BYTES
    add rsi, [rsp + F_TAB]
    mov rdx, [rsp + F_DIG]
    vpmovsxbq zmm14, [rdx + 8 * rax]
    vpxorq zmm13, zmm13, zmm13
    vpcmpq k2, zmm14, zmm13, 1          ; d < 0
    vpabsq zmm15, zmm14
    vptestmq k3, zmm15, zmm15
    ; the scan: every word of every entry loaded whole and ORed into
    ; zmm0..11 under the mask of the lanes whose |d| is its index + 1
    vpbroadcastq zmm14, [q52_one64]
    vmovdqa64 zmm13, zmm14
%assign w 0
%rep 12
    vpxorq zmm%[w], zmm%[w], zmm%[w]
%assign w w + 1
%endrep
    xor ecx, ecx
.scan:
%rep 4
    vpcmpeqq k1, zmm15, zmm13
    vpternlogq zmm12{k1}{z}, zmm12, zmm12, 0xff
%assign w 0
%rep 12
    vpternlogq zmm%[w], zmm12, [rsi + rcx + 8 * w] {1to8}, 0xf8    ; w | (m & entry)
%assign w w + 1
%endrep
    vpaddq zmm13, zmm13, zmm14
    add rcx, ENTRY
%endrep
    cmp rcx, ROW_BYTES
    jb .scan                            ; ct: public entry counter
    ; x, y to radix 2^52, then times 2^448 R^-1 = 2^32: Montgomery R = 2^416
    SPLIT rsp + F_QX, 0
    SPLIT rsp + F_QY, 6
    FMULC rsp + F_QX, rsp + F_QX, q52_c448
    FMULC rsp + F_QY, rsp + F_QY, q52_c448
    ; y = 8p - y where d < 0
    vpxorq zmm8, zmm8, zmm8
%assign i 0
%rep L
    vmovdqa64 [rsp + F_T + 64 * i], zmm8
%assign i i + 1
%endrep
    SUBK 0, rsp + F_T, rsp + F_QY, q52_k8p
    LD8 8, rsp + F_QY
%assign i 0
%rep L
%assign rb 8 + i
    vmovdqa64 zmm%[rb]{k2}, zmm%[i]
%assign i i + 1
%endrep
    ST8 rsp + F_QY, 8
    ; madd-2008-s in every lane (dropped where the lane is the identity
    ; or the digit zero). Bounds in units of p: ACC below 10p, Q below 8p.
    FMUL rsp + F_U2, rsp + F_QX, rsp + F_AZZ          ; U2 = x ZZ1
    FMUL rsp + F_S2, rsp + F_QY, rsp + F_AZZZ         ; S2 = y ZZZ1
    SUBK 0, rsp + F_U2, rsp + F_AX, q52_k16p          ; P = U2 - X1
    ST8 rsp + F_P, 0
    SUBK 0, rsp + F_S2, rsp + F_AY, q52_k16p          ; R = S2 - Y1
    ST8 rsp + F_R, 0
    FMUL rsp + F_PP, rsp + F_P, rsp + F_P             ; PP
    FMUL rsp + F_RR, rsp + F_R, rsp + F_R             ; R^2
    FMUL rsp + F_PPP, rsp + F_P, rsp + F_PP           ; PPP
    FMUL rsp + F_QV, rsp + F_AX, rsp + F_PP           ; Q = X1 PP
    FMUL rsp + F_NZZ, rsp + F_AZZ, rsp + F_PP         ; ZZ3 = ZZ1 PP
    FMUL rsp + F_NZZZ, rsp + F_AZZZ, rsp + F_PPP      ; ZZZ3 = ZZZ1 PPP
    FMUL rsp + F_YP, rsp + F_AY, rsp + F_PPP          ; Y1 PPP
    ; X3 = R^2 - PPP - 2Q (subtrahends below 6p)
%assign i 0
%rep L
    vmovdqa64 zmm%[i], [rsp + F_RR + 64 * i]
    vpaddq zmm%[i], zmm%[i], [q52_k8p + 8 * i] {1to8}
%assign i i + 1
%endrep
    SUBR 0, rsp + F_PPP
    SUBR 0, rsp + F_QV
    SUBR 0, rsp + F_QV
    SNORM8 0, 31
    ST8 rsp + F_NX, 0
    SUBK 0, rsp + F_QV, rsp + F_NX, q52_k16p          ; Q - X3
    ST8 rsp + F_T, 0
    FMUL rsp + F_RT, rsp + F_R, rsp + F_T             ; R (Q - X3)
    SUBK 0, rsp + F_RT, rsp + F_YP, q52_k8p           ; Y3 = R (Q - X3) - Y1 PPP
    ST8 rsp + F_NY, 0
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

    ; projective (X ZZZ : Y ZZ : ZZ ZZZ), times 2^384 R^-1 = 2^-32
    FMUL rsp + F_NX, rsp + F_AX, rsp + F_AZZZ
    FMUL rsp + F_NY, rsp + F_AY, rsp + F_AZZ
    FMUL rsp + F_NZZ, rsp + F_AZZ, rsp + F_AZZZ
    mov rdi, [rsp + F_R_OUT]
    FMULC rdi, rsp + F_NX, q52_c384
    FMULC rdi + EL, rsp + F_NY, q52_c384
    FMULC rdi + 2 * EL, rsp + F_NZZ, q52_c384
    ; wipe the frame, the vector and mask registers (secret)
    vpxorq zmm0, zmm0, zmm0
%assign j 0
%rep (21 * EL) / 64
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
    vzeroupper
    mov rsp, rbp
    POP_CALLEE
    ret
ENDFUNC vg_p384mb_comb_ifma
