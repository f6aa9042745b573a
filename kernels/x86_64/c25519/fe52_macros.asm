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

; SCARRY b: one serial carry pass over ymm b..b+4 (limbs < 2^61): limbs
; 1..4 end below 2^51, limb 0 below 2^51 + 2^16 (limb 4's carry enters it
; times 19). Uses ymm29, ymm30.
%macro SCARRY 1
%assign sc_i 0
%rep 4
%assign sc_a %1 + sc_i
%assign sc_b %1 + sc_i + 1
    vpsrlq ymm30, ymm%[sc_a], 51
    vpandq ymm%[sc_a], ymm%[sc_a], [c_m51]{1to4}
    vpaddq ymm%[sc_b], ymm%[sc_b], ymm30
%assign sc_i sc_i + 1
%endrep
%assign sc_a %1 + 4
    vpsrlq ymm29, ymm%[sc_a], 51
    vpandq ymm%[sc_a], ymm%[sc_a], [c_m51]{1to4}
    MUL19 %1, 29, 30
%endmacro

; PACK64 off, n: lanes 0..n-1 of the element whose limbs were stored at
; [rsp + off + 32 i] (after SCARRY) as 4 x 64-bit words at rdi + 32 lane
; (l0 may reach 2^51: its carry ripples up; the value stays below 2^256).
; Uses rax, rcx, rdx, r8, r9, r10.
%macro PACK64 2
%assign pk_lane 0
%rep %2
    mov rcx, [rsp + %1 + 32 + 8 * pk_lane]      ; l1
    mov rdx, [rsp + %1 + 64 + 8 * pk_lane]      ; l2
    mov r8, [rsp + %1 + 96 + 8 * pk_lane]       ; l3
    mov r9, [rsp + %1 + 128 + 8 * pk_lane]      ; l4
    mov rax, rcx
    shl rax, 51                 ; w0 = l1 << 51
    shr rcx, 13
    mov r10, rdx
    shl r10, 38
    or rcx, r10                 ; w1 = l1 >> 13 | l2 << 38
    shr rdx, 26
    mov r10, r8
    shl r10, 25
    or rdx, r10                 ; w2 = l2 >> 26 | l3 << 25
    shr r8, 39
    shl r9, 12
    or r8, r9                   ; w3 = l3 >> 39 | l4 << 12
    add rax, [rsp + %1 + 8 * pk_lane]           ; + l0
    adc rcx, 0
    adc rdx, 0
    adc r8, 0
    mov [rdi + 32 * pk_lane], rax
    mov [rdi + 32 * pk_lane + 8], rcx
    mov [rdi + 32 * pk_lane + 16], rdx
    mov [rdi + 32 * pk_lane + 24], r8
%assign pk_lane pk_lane + 1
%endrep
%endmacro

; WIPE_HI: zero ymm16..31 (vzeroall leaves them).
%macro WIPE_HI 0
%assign wh_i 16
%rep 16
    vpxorq ymm%[wh_i], ymm%[wh_i], ymm%[wh_i]
%assign wh_i wh_i + 1
%endrep
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
