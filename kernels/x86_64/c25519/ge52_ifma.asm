; ge52_ifma.asm: the Ed25519 fixed-base comb at the ifma tier: the four
; coordinates of the extended-coordinate formulas (Hisil-Wong-Carter-
; Dawson 2008) in the four lanes, so each mixed addition or doubling is
; two 4-lane products (fe52_macros.asm). Secret: the digits and every
; point; no branch or address depends on them (every table entry of a
; row is loaded and kept under a compare mask; the sign is a permutation
; by an index vector and a masked select).
;
; C prototype (kernels/src/c25519/fe4.h):
;   void vg_ge4_comb_ifma(vg_ge4_p3 *h, const vg_ge52_niels comb[32][8], const int8_t e[64]);
; the contract of vg_ge4_comb_base/adx (digits in [-8, 8]): h = sum_j
; e_{2j+1} 16 comb[j][.] + sum_j e_{2j} comb[j][.], on the table of
; ge52_table.c: entry (k + 1) 256^j B as limb vectors of the lanes
; (y - x, y + x, 2d x y, 2) (the 2 doubles Z in the addition).
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe52_macros.asm"
; ge52_ops_ifma.asm includes this file with VG_GE52_OPS defined for the
; macros and constants, and its own functions instead of the comb.

RODATA
align 32
c_id0:    dq 1, 1, 0, 2         ; limb 0 of the identity entry
c_s0:     dq 0, 1, 1, 0         ; limb 0 of the identity point (0 : 1 : 1 : 0)
c_idx:    dq 0, 1, 2, 3
c_1100:   dq 1, 1, 0, 0
c_lane2:  dq 0, 0, -1, 0
c_kl0:    dq 0x7ffffffffffed000, 0x3fffffffffff6800, 0x3fffffffffff6800, 0x7ffffffffffed000
c_kl1:    dq 0x7ffffffffffff000, 0x3ffffffffffff800, 0x3ffffffffffff800, 0x7ffffffffffff000
c_kr0:    dq 0x3fffffffffff6800, 0, 0x3fffffffffff6800, 0
c_kr1:    dq 0x3ffffffffffff800, 0, 0x3ffffffffffff800, 0
align 8
c_dig:    dq 1, 2, 3, 4, 5, 6, 7, 8
c_2p0:    dq 0xfffffffffffda    ; 2p in 51-bit limbs: 2^52 - 38,
c_2p1:    dq 0xffffffffffffe    ; 2^52 - 2 (limbs 1..4)

%define ENTRY 160               ; bytes per table entry (5 limb vectors)
%define ROW (8 * ENTRY)

; Register map (ymm): state (X, Y, Z, T) in 5-9 (the products' output,
; limbs < 2^61); 0-4 first operand; 24-28 second operand (the selected
; entry); 14-17, 30, 31 scratch for the input preparation (free between
; products); 23, 29 the carry pass. k1 lane 1, k2 lanes 2-3, k3 lane 0,
; k4 lane 2, k6 lanes 0, 2, 3, k7 lanes 1, 3 (public constants); k5
; the scan's compare (secret) or, in a doubling, a public lane mask.

; MADD: S += the entry of row rcx for the digit at [rsi] (secret).
%macro MADD 0
    movsx eax, byte [rsi]
    mov edx, eax
    sar edx, 7                  ; -1 for a negative digit, else 0
    xor eax, edx
    sub eax, edx                ; |d| in 0..8
    vpbroadcastq zmm31, rax
    ; The scan two limb vectors a load: zmm24 = limbs 0 and 1, zmm26 =
    ; limbs 2 and 3, ymm28 = limb 4, split into ymm24-28 after (seven
    ; instructions an entry instead of eleven: comb 0.96-0.975 of the
    ; all-ymm scan's time on Zen 5, one process; 64-byte-aligned entries,
    ; so that no load splits a line, measured the same). Moves and
    ; compares only at 512 bits: AVX-512 "light", the frequency class
    ; the 256-bit IFMA products already set on Intel.
    vmovdqa64 ymm24, [c_id0]    ; EVEX.256: zmm24's upper half (limb 1) 0
    vpxorq ymm26, ymm26, ymm26
    vpxorq ymm28, ymm28, ymm28
%assign k 0
%rep 8
    vpcmpeqq k5, zmm31, [c_dig + 8 * k]{1to8}
    vmovdqu64 zmm30, [rcx + ENTRY * k]
    vmovdqa64 zmm24{k5}, zmm30
    vmovdqu64 zmm30, [rcx + ENTRY * k + 64]
    vmovdqa64 zmm26{k5}, zmm30
    vmovdqa64 ymm30, [rcx + ENTRY * k + 128]
    vmovdqa64 ymm28{k5}, ymm30
%assign k k + 1
%endrep
    vextracti64x4 ymm25, zmm24, 1
    vextracti64x4 ymm27, zmm26, 1
    ; negative: swap lanes 0 and 1 (index vector (s, 1 ^ s, 2, 3)) and
    ; lane 2 = 2p - lane 2 (entries are fully reduced, so 2p - x >= 0)
    and edx, 1
    vpbroadcastq ymm31, rdx
    vpandq ymm30, ymm31, [c_1100]
    vpxorq ymm30, ymm30, [c_idx]
    vpxorq ymm23, ymm23, ymm23
    vpsubq ymm23, ymm23, ymm31
    vpandq ymm23, ymm23, [c_lane2]
%assign i 0
%rep 5
%if i == 0
%define TWOP c_2p0
%else
%define TWOP c_2p1
%endif
%assign rb 24 + i
    vpermq ymm%[rb], ymm30, ymm%[rb]
    vpbroadcastq ymm31, [TWOP]
    vpsubq ymm31, ymm31, ymm%[rb]
    vpternlogq ymm%[rb], ymm31, ymm23, 0xd8     ; ymm23 ? 2p - x : x
%assign i i + 1
%endrep
    LEVEL1_ADD
    add rsi, 2
    add rcx, ROW
%endmacro

; LEVEL1_ADD: (Y - X, Y + X, T, Z) x the entry in 24-28 -> (A, B, C, D =
; 2Z) in 5-9, then LEVEL2_ADD
%macro LEVEL1_ADD 0
%assign i 0
%rep 5
%if i == 0
%define KP c_kp0
%else
%define KP c_kp1
%endif
%assign rs 5 + i
    vpermq ymm14, ymm%[rs], 0xb5
    vpermq ymm15, ymm%[rs], 0x00
    vpaddq ymm%[i], ymm14, [KP]{1to4}
    vpsubq ymm%[i], ymm%[i], ymm15
    vpaddq ymm%[i]{k1}, ymm14, ymm15
    vmovdqa64 ymm%[i]{k2}, ymm14
%assign i i + 1
%endrep
    PCARRY 0
    MUL4 0, 24
    LEVEL2_ADD
%endmacro

; LEVEL2_ADD: from (A, B, C, D) in 5-9: (E, G, F, E) x (F, H, G, H) with
; E = B - A, F = D - C, G = D + C, H = B + A -> (X3, Y3, Z3, T3)
%macro LEVEL2_ADD 0
%assign i 0
%rep 5
%if i == 0
%define KP c_kp0
%else
%define KP c_kp1
%endif
%assign ry 5 + i
%assign rb 24 + i
    vpermq ymm14, ymm%[ry], 0x7d
    vpermq ymm15, ymm%[ry], 0x28
    vpermq ymm16, ymm%[ry], 0x77
    vpermq ymm17, ymm%[ry], 0x22
    vpaddq ymm%[i], ymm14, [KP]{1to4}
    vpsubq ymm%[i], ymm%[i], ymm15
    vpaddq ymm%[i]{k1}, ymm14, ymm15
    vpaddq ymm%[rb], ymm16, ymm17
    vpaddq ymm%[rb]{k3}, ymm16, [KP]{1to4}
    vpsubq ymm%[rb]{k3}, ymm%[rb], ymm17
%assign i i + 1
%endrep
    PCARRY 0
    PCARRY 24
    MUL4 0, 24
%endmacro

; DBL: S = 2 S. Level 1: (X, Y, Z, X + Y)^2 -> (A, B, Z^2, S2); level 2
; with a = -1 and every output negated (the same projective point):
; E = S2 - A - B, G = B - A, F' = 2 Z^2 + A - B, H' = A + B;
; (E, G, F', E) x (F', H', G, H').
%macro DBL 0
    mov eax, 0x8
    kmovw k5, eax               ; lane 3
%assign i 0
%rep 5
%assign rs 5 + i
    vpermq ymm%[i], ymm%[rs], 0x24
    vpermq ymm14, ymm%[rs], 0x55
    vpaddq ymm%[i]{k5}, ymm%[i], ymm14
%assign i i + 1
%endrep
    PCARRY 0
    MUL4 0, 0
    mov eax, 0xb
    kmovw k5, eax               ; lanes 0, 1, 3
%assign i 0
%rep 5
%if i == 0
%define KL c_kl0
%define KR c_kr0
%else
%define KL c_kl1
%define KR c_kr1
%endif
%assign ry 5 + i
%assign rb 24 + i
    vpermq ymm14, ymm%[ry], 0x00        ; A
    vpermq ymm15, ymm%[ry], 0x55        ; B
    vpermq ymm%[i], ymm%[ry], 0xe7      ; (S2, B, Z^2, S2)
    vpaddq ymm%[i]{k4}, ymm%[i], ymm%[i]
    vpaddq ymm%[i], ymm%[i], [KL]
    vpsubq ymm%[i]{k5}, ymm%[i], ymm14
    vpaddq ymm%[i]{k4}, ymm%[i], ymm14
    vpsubq ymm%[i]{k6}, ymm%[i], ymm15
    vpermq ymm%[rb], ymm%[ry], 0x12     ; (Z^2, A, B, A)
    vpaddq ymm%[rb]{k3}, ymm%[rb], ymm%[rb]
    vpaddq ymm%[rb], ymm%[rb], [KR]
    vpaddq ymm%[rb]{k3}, ymm%[rb], ymm14
    vpsubq ymm%[rb]{k4}, ymm%[rb], ymm14
    vpsubq ymm%[rb]{k3}, ymm%[rb], ymm15
    vpaddq ymm%[rb]{k7}, ymm%[rb], ymm15
%assign i i + 1
%endrep
    PCARRY 0
    PCARRY 24
    MUL4 0, 24
%endmacro

; MASKS: the public lane masks k1..k4, k6, k7
%macro MASKS 0
    mov eax, 0x2
    kmovw k1, eax
    mov eax, 0xc
    kmovw k2, eax
    mov eax, 0x1
    kmovw k3, eax
    mov eax, 0x4
    kmovw k4, eax
    mov eax, 0xd
    kmovw k6, eax
    mov eax, 0xa
    kmovw k7, eax
%endmacro

%ifdef VG_GE52_OPS
; the state at rdi <-> ymm 5-9
%macro LOADS 0
%assign i 0
%rep 5
%assign rs 5 + i
    vmovdqa64 ymm%[rs], [rdi + 32 * i]
%assign i i + 1
%endrep
%endmacro
%macro STORES 0
%assign i 0
%rep 5
%assign rs 5 + i
    vmovdqa64 [rdi + 32 * i], ymm%[rs]
%assign i i + 1
%endrep
    vzeroupper
%endmacro

FUNC vg_ge52_add_ifma
    MASKS
    LOADS
%assign i 0
%rep 5
%assign rb 24 + i
    vmovdqa64 ymm%[rb], [rsi + 32 * i]
%assign i i + 1
%endrep
    LEVEL1_ADD
    STORES
    ret
ENDFUNC vg_ge52_add_ifma

FUNC vg_ge52_dbl_ifma
    MASKS
    LOADS
    DBL
    STORES
    ret
ENDFUNC vg_ge52_dbl_ifma
%else
FUNC vg_ge4_comb_ifma
    mov r11, rsp                ; restored at the end (public)
    and rsp, -32
    sub rsp, 160
    mov r9, rsi                 ; table (public)
    mov r10, rdx                ; digits
    MASKS
    vmovdqa64 ymm5, [c_s0]
%assign i 6
%rep 4
    vpxorq ymm%[i], ymm%[i], ymm%[i]
%assign i i + 1
%endrep
    ; odd digits (times 16 after the doublings), then the even ones
    mov rsi, r10
    add rsi, 1
    mov rcx, r9
    mov r8d, 32
.odd:
    MADD
    dec r8d
    jnz .odd                    ; ct: public row counter
    DBL
    DBL
    DBL
    DBL
    mov rsi, r10
    mov rcx, r9
    mov r8d, 32
.even:
    MADD
    dec r8d
    jnz .even                   ; ct: public row counter

    ; one serial carry (limbs < 2^61 in), then 5 x 51 -> 4 x 64 per lane
    SCARRY 5
%assign i 0
%rep 5
%assign ra 5 + i
    vmovdqa64 [rsp + 32 * i], ymm%[ra]
%assign i i + 1
%endrep
    PACK64 0, 4
    ; wipe the frame and every vector register that held secrets
    vpxorq ymm30, ymm30, ymm30
%assign i 0
%rep 5
    vmovdqa64 [rsp + 32 * i], ymm30
%assign i i + 1
%endrep
    WIPE_HI
    vzeroall
    kxorw k5, k5, k5
    xor eax, eax
    xor ecx, ecx
    xor edx, edx
    xor r8d, r8d
    xor r9d, r9d
    xor r10d, r10d
    mov rsp, r11
    ret
ENDFUNC vg_ge4_comb_ifma
%endif
