; fe51mb_macros.asm: GF(2^255-19) on eight independent elements at once
; for the c25519_mb family's ifma row (kernels/src/c25519/c25519_mb_impl.h):
; radix 2^51, five limbs, limb i of all eight lanes in one zmm register
; ("transposed": limb i of lane l at qword 8 i + l in memory, byte 64 i
; of an element). Secret: every field element.
;
; The same representation and bounds as fe52_macros.asm (four lanes in
; ymm), widened to zmm: the multiplier reads only the low 52 bits of its
; operands, so every product input has all limbs below 2^52
; ("normalized"), which one parallel carry pass (PCARRYZ) restores from
; limbs below 2^63. A product's high halves (bits 52..103 of a_i b_j) sit
; at weight 2^52 2^(51(i+j)) = 2 2^(51(i+j+1)): summed apart, doubled.
;
; Register use: operand a in zmm0..4; columns L0..L8 in zmm5..13
; (the result ends in zmm5..9), H0..H8 in zmm14..22; zmm23, 24, 29
; scratch. Addresses are macro arguments (a base register plus a
; constant): public.
%ifndef VG_FE51MB_MACROS_ASM
%define VG_FE51MB_MACROS_ASM 1

RODATA
align 8
mb_m51:  dq 0x7ffffffffffff      ; 2^51 - 1
mb_19:   dq 19
mb_kp0:  dq 0x3fffffffffff6800   ; 2^11 p in 51-bit limbs (limb 0), above
mb_kp1:  dq 0x3ffffffffffff800   ; every normalized limb: x + 2^11 p - y >= 0
mb_a24:  dq 121665
mb_one:  dq 1

; MUL19Z d, x, t: zmm d += 19 zmm x (x < 2^59), zmm t scratch
%macro MUL19Z 3
    vpsllq zmm%[%3], zmm%[%2], 4
    vpaddq zmm%[%1], zmm%[%1], zmm%[%2]
    vpaddq zmm%[%1], zmm%[%1], zmm%[%3]
    vpsllq zmm%[%3], zmm%[%2], 1
    vpaddq zmm%[%1], zmm%[%1], zmm%[%3]
%endmacro

; PCARRYZ b: one parallel carry pass over zmm b..b+4 (limbs < 2^63):
; afterwards limbs 1..4 are below 2^51 + 2^12, limb 0 below 2^51 + 2^17
; (limb 4's carry, 2^255 = 19, enters it times 19). Uses zmm23, zmm29.
%macro PCARRYZ 1
%assign %%r4 %1 + 4
    vpsrlq zmm29, zmm%[%%r4], 51
    vpandq zmm%[%%r4], zmm%[%%r4], [mb_m51]{1to8}
%assign %%i 3
%rep 4
%assign %%ra %1 + %%i
%assign %%rb %1 + %%i + 1
    vpsrlq zmm23, zmm%[%%ra], 51
    vpandq zmm%[%%ra], zmm%[%%ra], [mb_m51]{1to8}
    vpaddq zmm%[%%rb], zmm%[%%rb], zmm23
%assign %%i %%i - 1
%endrep
    vpmadd52luq zmm%[%1], zmm29, [mb_19]{1to8}
%endmacro

; ZERO_COLS: zmm5..22 = 0 (the columns of a product)
%macro ZERO_COLS 0
%assign %%k 5
%rep 18
    vpxorq zmm%[%%k], zmm%[%%k], zmm%[%%k]
%assign %%k %%k + 1
%endrep
%endmacro

; FOLD: the columns to five limbs in zmm5..9: c_k = L_k + 2 H_(k-1),
; then c_(k+5) enters c_k times 19 (2^255 = 19). Each column holds at
; most five 52-bit halves: c_k < 15 2^52, the folded limbs < 300 2^52 <
; 2^61.
%macro FOLD 0
%assign %%k 1
%rep 8
%assign %%rl 5 + %%k
%assign %%rh 14 + %%k - 1
    vpaddq zmm%[%%rh], zmm%[%%rh], zmm%[%%rh]
    vpaddq zmm%[%%rl], zmm%[%%rl], zmm%[%%rh]
%assign %%k %%k + 1
%endrep
    vpaddq zmm22, zmm22, zmm22          ; c9 = 2 H8
%assign %%k 0
%rep 4
%assign %%rl 5 + %%k
%assign %%rh 5 + %%k + 5
    MUL19Z %%rl, %%rh, 23
%assign %%k %%k + 1
%endrep
    MUL19Z 9, 22, 23
%endmacro

; MULZ b: zmm5..9 = zmm0..4 times the element at [b] (normalized, both),
; carried: limbs below 2^52. zmm24 holds b's limbs one by one.
%macro MULZ 1
    ZERO_COLS
%assign %%j 0
%rep 5
    vmovdqu64 zmm24, [%1 + 64 * %%j]
%assign %%i 0
%rep 5
%assign %%rl 5 + %%i + %%j
%assign %%rh 14 + %%i + %%j
    vpmadd52luq zmm%[%%rl], zmm%[%%i], zmm24
    vpmadd52huq zmm%[%%rh], zmm%[%%i], zmm24
%assign %%i %%i + 1
%endrep
%assign %%j %%j + 1
%endrep
    FOLD
    PCARRYZ 5
%endmacro

; SQRZ: zmm5..9 = zmm0..4 squared (normalized), carried. The ten cross
; products a_i a_j (i < j) once, their columns doubled, then the five
; squares: 30 multiplier instructions instead of 50. Column bounds as in
; MULZ (at most two doubled cross terms and one square per column).
%macro SQRZ 0
    ZERO_COLS
%assign %%i 0
%rep 4
%assign %%j %%i + 1
%rep 4 - %%i
%assign %%rl 5 + %%i + %%j
%assign %%rh 14 + %%i + %%j
    vpmadd52luq zmm%[%%rl], zmm%[%%i], zmm%[%%j]
    vpmadd52huq zmm%[%%rh], zmm%[%%i], zmm%[%%j]
%assign %%j %%j + 1
%endrep
%assign %%i %%i + 1
%endrep
%assign %%k 1
%rep 7
%assign %%rl 5 + %%k
%assign %%rh 14 + %%k
    vpaddq zmm%[%%rl], zmm%[%%rl], zmm%[%%rl]
    vpaddq zmm%[%%rh], zmm%[%%rh], zmm%[%%rh]
%assign %%k %%k + 1
%endrep
%assign %%i 0
%rep 5
%assign %%rl 5 + 2 * %%i
%assign %%rh 14 + 2 * %%i
    vpmadd52luq zmm%[%%rl], zmm%[%%i], zmm%[%%i]
    vpmadd52huq zmm%[%%rh], zmm%[%%i], zmm%[%%i]
%assign %%i %%i + 1
%endrep
    FOLD
    PCARRYZ 5
%endmacro

; LOADZ r, a / STOREZ a, r: zmm r..r+4 from / to the element at [a]
%macro LOADZ 2
%assign %%i 0
%rep 5
%assign %%r %1 + %%i
    vmovdqu64 zmm%[%%r], [%2 + 64 * %%i]
%assign %%i %%i + 1
%endrep
%endmacro
%macro STOREZ 2
%assign %%i 0
%rep 5
%assign %%r %2 + %%i
    vmovdqu64 [%1 + 64 * %%i], zmm%[%%r]
%assign %%i %%i + 1
%endrep
%endmacro

; FMULZ d, a, b: [d] = [a] [b]; FSQRZ d, a: [d] = [a]^2. d may be a or b
; (stored after the last read).
%macro FMULZ 3
    LOADZ 0, %2
    MULZ %3
    STOREZ %1, 5
%endmacro
%macro FSQRZ 2
    LOADZ 0, %2
    SQRZ
    STOREZ %1, 5
%endmacro

; FADDZ d, a, b: [d] = [a] + [b]; FSUBZ d, a, b: [d] = [a] - [b] + 2^11 p;
; carried (normalized inputs: limbs below 2^63 before the pass).
%macro FADDZ 3
%assign %%i 0
%rep 5
%assign %%r 5 + %%i
    vmovdqu64 zmm%[%%r], [%2 + 64 * %%i]
    vpaddq zmm%[%%r], zmm%[%%r], [%3 + 64 * %%i]
%assign %%i %%i + 1
%endrep
    PCARRYZ 5
    STOREZ %1, 5
%endmacro
%macro FSUBZ 3
%assign %%i 0
%rep 5
%assign %%r 5 + %%i
%if %%i == 0
    vpbroadcastq zmm%[%%r], [mb_kp0]
%else
    vpbroadcastq zmm%[%%r], [mb_kp1]
%endif
    vpaddq zmm%[%%r], zmm%[%%r], [%2 + 64 * %%i]
    vpsubq zmm%[%%r], zmm%[%%r], [%3 + 64 * %%i]
%assign %%i %%i + 1
%endrep
    PCARRYZ 5
    STOREZ %1, 5
%endmacro

; FA24Z d, e, s: [d] = a24 [e] + [s], a24 = 121665 < 2^17 (normalized
; inputs). Each a24 e_i as a low half (below 2^52) and a high half (below
; 2^17) at weight 2 2^(51(i+1)); the top one wraps to limb 0 times 19.
; Limbs below 2^52 + 2^52 + 2^18 + 19 2^18 before the carry pass.
%macro FA24Z 3
    LOADZ 0, %2
    LOADZ 5, %3
    vpbroadcastq zmm24, [mb_a24]
%assign %%i 0
%rep 5
%assign %%rl 5 + %%i
%assign %%rh 14 + %%i
    vpxorq zmm%[%%rh], zmm%[%%rh], zmm%[%%rh]
    vpmadd52luq zmm%[%%rl], zmm%[%%i], zmm24
    vpmadd52huq zmm%[%%rh], zmm%[%%i], zmm24
    vpaddq zmm%[%%rh], zmm%[%%rh], zmm%[%%rh]
%assign %%i %%i + 1
%endrep
%assign %%i 0
%rep 4
%assign %%rl 5 + %%i + 1
%assign %%rh 14 + %%i
    vpaddq zmm%[%%rl], zmm%[%%rl], zmm%[%%rh]
%assign %%i %%i + 1
%endrep
    MUL19Z 5, 18, 23
    PCARRYZ 5
    STOREZ %1, 5
%endmacro

; WIPEZ: zero every vector register (zmm0..31) and the mask registers
; k1..k3 (they held secrets); vzeroall leaves zmm16..31.
%macro WIPEZ 0
%assign %%k 16
%rep 16
    vpxorq zmm%[%%k], zmm%[%%k], zmm%[%%k]
%assign %%k %%k + 1
%endrep
    vzeroall
    kxorw k1, k1, k1
    kxorw k2, k2, k2
    kxorw k3, k3, k3
%endmacro

%endif
