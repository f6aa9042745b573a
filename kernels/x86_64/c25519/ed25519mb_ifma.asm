; ed25519mb_ifma.asm: the fixed-base multiplication [a]B of the c25519_mb
; family's ifma row (kernels/src/c25519/c25519_mb_impl.h) for eight
; independent scalars at once, one per 64-bit lane of zmm registers
; (transposed radix-2^51 field elements, fe51mb_macros.asm): the signed
; radix-16 comb of ge_base.c, lane by lane.
; Secret: every digit, selected table entry and point coordinate. No
; branch and no address depends on them: the branches are the loop
; counters (table row, doubling count); the table row and the digit
; vector are read at public offsets; each lane's entry is picked by
; merge-masked broadcasts of all eight entries of the row under masks
; from a vector compare with the lane's |digit|, and a negative digit
; negates the entry under a mask.
;
; void vg_ge51mb_comb_ifma(uint64_t h[120], const vg_ge_niels table[32][8],
;                          const int8_t e[512]);
;   e: the 64 signed digits of each lane's scalar (e_i in [-8, 8]), digit
;   i of lane l at e[8 i + l]; table: vg_ge_base_comb (row j entry k =
;   (k + 1) 256^j B, as (y + x, y - x, 2 d x y), limbs below 2^52).
;   Writes X, Y, Z of the extended point [sum e_i 16^i] B of each lane
;   to h[0..39], h[40..79], h[80..119] (limbs below 2^52; any
;   representatives: x = X / Z, y = Y / Z).
; Method as ge_base.c: the odd positions (row j = digit 2j + 1) summed by
; mixed additions from the identity, four doublings, then the even ones.
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe51mb_macros.asm"

RODATA
align 8
mb_j:   dq 1, 2, 3, 4, 5, 6, 7, 8   ; the entry numbers, for the compares

; Frame (64-byte aligned), element slots of 320 bytes; all secret, wiped
; before returning.
%define S_YPX  0
%define S_YMX  320
%define S_XY   640
%define S_X    960
%define S_Y    1280
%define S_Z    1600
%define S_T    1920
%define S_A    2240
%define S_B    2560
%define S_C    2880
%define S_D    3200
%define S_E    3520
%define S_F    3840
%define S_G    4160
%define S_H    4480
%define S_U    4800
%define F_SIZE 5120
%define NIELS  120                  ; bytes of one table entry
%define ROW    (8 * NIELS)

; SELECT: the entry of row r9 for each lane's digit at [r10] into the
; frame's (ypx, ymx, xy): the identity (1, 1, 0) for digit 0, entry
; |e| - 1 otherwise, negated ((y + x, y - x) exchanged, xy negated) for
; e < 0. zmm5..19 collect the 15 limbs; zmm25 |e|, k2 the sign.
%macro SELECT 0
    vpmovsxbq zmm25, [r10]
    vpxorq zmm26, zmm26, zmm26
    vpcmpq k2, zmm25, zmm26, 1          ; e < 0
    vpabsq zmm25, zmm25
    vpbroadcastq zmm5, [mb_one]
    vpbroadcastq zmm10, [mb_one]
%assign %%i 1
%rep 4
%assign %%ra 5 + %%i
%assign %%rb 10 + %%i
    vpxorq zmm%[%%ra], zmm%[%%ra], zmm%[%%ra]
    vpxorq zmm%[%%rb], zmm%[%%rb], zmm%[%%rb]
%assign %%i %%i + 1
%endrep
%assign %%i 0
%rep 5
%assign %%r 15 + %%i
    vpxorq zmm%[%%r], zmm%[%%r], zmm%[%%r]
%assign %%i %%i + 1
%endrep
%assign %%k 0
%rep 8
    vpcmpeqq k1, zmm25, [mb_j + 8 * %%k]{1to8}
%assign %%i 0
%rep 15
%assign %%r 5 + %%i
    vpbroadcastq zmm%[%%r]{k1}, [r9 + NIELS * %%k + 8 * %%i]
%assign %%i %%i + 1
%endrep
%assign %%k %%k + 1
%endrep
    ; e < 0: exchange y + x and y - x, xy = 2^11 p - xy (then carried)
%assign %%i 0
%rep 5
%assign %%ra 5 + %%i
%assign %%rb 10 + %%i
%assign %%rc 15 + %%i
    vpblendmq zmm0{k2}, zmm%[%%ra], zmm%[%%rb]
    vpblendmq zmm1{k2}, zmm%[%%rb], zmm%[%%ra]
    vmovdqa64 [rsp + S_YPX + 64 * %%i], zmm0
    vmovdqa64 [rsp + S_YMX + 64 * %%i], zmm1
%if %%i == 0
    vpbroadcastq zmm2, [mb_kp0]
%else
    vpbroadcastq zmm2, [mb_kp1]
%endif
    vpsubq zmm%[%%rc]{k2}, zmm2, zmm%[%%rc]
%assign %%i %%i + 1
%endrep
    PCARRYZ 15
    STOREZ rsp + S_XY, 15
%endmacro

; TO_P3: (X, Y, Z, T) = (E F, G H, F G, E H)
%macro TO_P3 0
    FMULZ rsp + S_X, rsp + S_E, rsp + S_F
    FMULZ rsp + S_Y, rsp + S_G, rsp + S_H
    FMULZ rsp + S_Z, rsp + S_F, rsp + S_G
    FMULZ rsp + S_T, rsp + S_E, rsp + S_H
%endmacro

; MADD: (X, Y, Z, T) += the selected entry (madd-2008-hwcd-3, ge.c's
; vg_ge_add_niels)
%macro MADD 0
    FSUBZ rsp + S_A, rsp + S_Y, rsp + S_X
    FMULZ rsp + S_A, rsp + S_A, rsp + S_YMX     ; A = (Y - X)(y - x)
    FADDZ rsp + S_B, rsp + S_Y, rsp + S_X
    FMULZ rsp + S_B, rsp + S_B, rsp + S_YPX     ; B = (Y + X)(y + x)
    FMULZ rsp + S_C, rsp + S_T, rsp + S_XY      ; C = T 2 d x y
    FADDZ rsp + S_D, rsp + S_Z, rsp + S_Z       ; D = 2 Z
    FSUBZ rsp + S_E, rsp + S_B, rsp + S_A       ; E = B - A
    FSUBZ rsp + S_F, rsp + S_D, rsp + S_C       ; F = D - C
    FADDZ rsp + S_G, rsp + S_D, rsp + S_C       ; G = D + C
    FADDZ rsp + S_H, rsp + S_B, rsp + S_A       ; H = B + A
    TO_P3
%endmacro

; FNSUMZ d, a, b: [d] = 2^11 p - [a] - [b], carried (normalized inputs)
%macro FNSUMZ 3
%assign %%i 0
%rep 5
%assign %%r 5 + %%i
%if %%i == 0
    vpbroadcastq zmm%[%%r], [mb_kp0]
%else
    vpbroadcastq zmm%[%%r], [mb_kp1]
%endif
    vpsubq zmm%[%%r], zmm%[%%r], [%2 + 64 * %%i]
    vpsubq zmm%[%%r], zmm%[%%r], [%3 + 64 * %%i]
%assign %%i %%i + 1
%endrep
    PCARRYZ 5
    STOREZ %1, 5
%endmacro

; DBL: (X, Y, Z, T) doubled (dbl-2008-hwcd with a = -1, ge.c's dbl)
%macro DBL 0
    FSQRZ rsp + S_A, rsp + S_X                  ; A = X^2
    FSQRZ rsp + S_B, rsp + S_Y                  ; B = Y^2
    FSQRZ rsp + S_C, rsp + S_Z
    FADDZ rsp + S_C, rsp + S_C, rsp + S_C       ; C = 2 Z^2
    FADDZ rsp + S_U, rsp + S_X, rsp + S_Y
    FSQRZ rsp + S_U, rsp + S_U                  ; (X + Y)^2
    FADDZ rsp + S_D, rsp + S_A, rsp + S_B       ; A + B
    FSUBZ rsp + S_E, rsp + S_U, rsp + S_D       ; E = (X + Y)^2 - A - B
    FSUBZ rsp + S_G, rsp + S_B, rsp + S_A       ; G = B - A
    FSUBZ rsp + S_F, rsp + S_G, rsp + S_C       ; F = G - C
    FNSUMZ rsp + S_H, rsp + S_A, rsp + S_B      ; H = -A - B (a = -1)
    TO_P3
%endmacro

FUNC vg_ge51mb_comb_ifma
    mov r11, rsp                ; restored at the end (public)
    and rsp, -64
    sub rsp, F_SIZE
    ; (X, Y, Z, T) = the identity (0, 1, 1, 0)
    vpxorq zmm6, zmm6, zmm6
    vpbroadcastq zmm5, [mb_one]
%assign i 0
%rep 5
    vmovdqa64 [rsp + S_X + 64 * i], zmm6
    vmovdqa64 [rsp + S_T + 64 * i], zmm6
%if i == 0
    vmovdqa64 [rsp + S_Y + 64 * i], zmm5
    vmovdqa64 [rsp + S_Z + 64 * i], zmm5
%else
    vmovdqa64 [rsp + S_Y + 64 * i], zmm6
    vmovdqa64 [rsp + S_Z + 64 * i], zmm6
%endif
%assign i i + 1
%endrep

    ; odd positions: digit 2 j + 1 with row j
    mov r9, rsi
    lea r10, [rdx + 8]
    mov r8d, 32                 ; rows left (public)
align 64
.odd:
    SELECT
    MADD
    add r9, ROW
    add r10, 16
    dec r8d
    jnz .odd                    ; ct: public loop counter

    mov r8d, 4                  ; times 16 (public count)
align 64
.dbl:
    DBL
    dec r8d
    jnz .dbl                    ; ct: public loop counter

    ; even positions: digit 2 j with row j
    mov r9, rsi
    mov r10, rdx
    mov r8d, 32
align 64
.even:
    SELECT
    MADD
    add r9, ROW
    add r10, 16
    dec r8d
    jnz .even                   ; ct: public loop counter

%assign i 0
%rep 5
    vmovdqa64 zmm0, [rsp + S_X + 64 * i]
    vmovdqu64 [rdi + 64 * i], zmm0
    vmovdqa64 zmm1, [rsp + S_Y + 64 * i]
    vmovdqu64 [rdi + 320 + 64 * i], zmm1
    vmovdqa64 zmm2, [rsp + S_Z + 64 * i]
    vmovdqu64 [rdi + 640 + 64 * i], zmm2
%assign i i + 1
%endrep
    ; wipe the frame and every register that held secrets
    vpxorq zmm0, zmm0, zmm0
%assign i 0
%rep F_SIZE / 64
    vmovdqa64 [rsp + 64 * i], zmm0
%assign i i + 1
%endrep
    WIPEZ
    mov rsp, r11
    ret
ENDFUNC vg_ge51mb_comb_ifma
