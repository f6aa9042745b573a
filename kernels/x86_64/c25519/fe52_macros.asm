; fe52_macros.asm: GF(2^255-19) in four 64-bit lanes of ymm registers,
; radix 2^51 (five limbs, one register per limb), for the ifma tier:
; the product, the carry pass and their constants, shared by
; x25519_ifma.asm and ge52_ifma.asm. Secret: every field element.
;
; The instructions read only the low 52 bits of each operand, so every
; product input has all limbs below 2^52 ("normalized"); one parallel
; carry pass (PCARRY) gets there from limbs below 2^63. A product's high
; halves (bits 52..103) land at weight 2 * 2^51(i+j+1): they are summed
; apart and doubled. Register use: products write ymm 5..22 and 23;
; PCARRY uses 23 and 29.
%ifndef VG_FE52_MACROS_ASM
%define VG_FE52_MACROS_ASM 1

RODATA
align 8
c_m51:  dq 0x7ffffffffffff       ; 2^51 - 1
c_19:   dq 19
c_kp0:  dq 0x3fffffffffff6800    ; 2^11 p in 51-bit limbs: 2^62 - 19 * 2^11,
c_kp1:  dq 0x3ffffffffffff800    ; 2^62 - 2^11 (limbs 1..4); above every
                                 ; product limb, so x + 2^11 p - y >= 0

; MUL19 d, x, t: ymm d += 19 ymm x (64-bit lanes; x < 2^59, so no
; overflow), ymm t scratch
%macro MUL19 3
    vpsllq ymm%[%3], ymm%[%2], 4
    vpaddq ymm%[%1], ymm%[%1], ymm%[%2]
    vpaddq ymm%[%1], ymm%[%1], ymm%[%3]
    vpsllq ymm%[%3], ymm%[%2], 1
    vpaddq ymm%[%1], ymm%[%1], ymm%[%3]
%endmacro

; PCARRY b: one parallel carry pass over ymm b..b+4 (limbs < 2^63):
; afterwards every limb is below 2^51 + 2^17 < 2^52. Limb 4's carry
; (2^255) enters limb 0 times 19. Uses ymm23, ymm29.
%macro PCARRY 1
%assign r0 %1
%assign r4 %1 + 4
    vpsrlq ymm29, ymm%[r4], 51
    vpandq ymm%[r4], ymm%[r4], [c_m51]{1to4}
%assign i 3
%rep 4
%assign ra %1 + i
%assign rb %1 + i + 1
    vpsrlq ymm23, ymm%[ra], 51
    vpandq ymm%[ra], ymm%[ra], [c_m51]{1to4}
    vpaddq ymm%[rb], ymm%[rb], ymm23
%assign i i - 1
%endrep
    vpmadd52luq ymm%[r0], ymm29, [c_19]{1to4}
%endmacro

; MUL4 a, b: ymm 5..9 = (ymm a..a+4) * (ymm b..b+4)
; in every lane, inputs normalized (limbs < 2^52); output limbs below
; 15 * 2^52 + 19 * 15 * 2^52 < 2^61, not normalized: every product
; feeds an addition (or a lane move) and the carry pass after it. Columns
; c_k = L_k + 2 H_{k-1}; c_{k+5} folds into c_k times 19 (2^255 = 19).
%macro MUL4 2
%assign k 5
%rep 18
    vpxorq ymm%[k], ymm%[k], ymm%[k]
%assign k k + 1
%endrep
%assign j 0
%rep 5
%assign i 0
%rep 5
%assign ra %1 + i
%assign rb %2 + j
%assign rl 5 + i + j
%assign rh 14 + i + j
    vpmadd52luq ymm%[rl], ymm%[ra], ymm%[rb]
    vpmadd52huq ymm%[rh], ymm%[ra], ymm%[rb]
%assign i i + 1
%endrep
%assign j j + 1
%endrep
%assign k 1
%rep 8
%assign rl 5 + k
%assign rh 14 + k - 1
    vpaddq ymm%[rh], ymm%[rh], ymm%[rh]
    vpaddq ymm%[rl], ymm%[rl], ymm%[rh]
%assign k k + 1
%endrep
    vpaddq ymm22, ymm22, ymm22          ; c9 = 2 H8
%assign k 0
%rep 4
%assign rl 5 + k
%assign rh 5 + k + 5
    MUL19 rl, rh, 23
%assign k k + 1
%endrep
    MUL19 9, 22, 23
%endmacro

%endif
