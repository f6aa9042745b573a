; x25519_ifma.asm: the X25519 ladder at the ifma tier (AVX-512F/VL +
; IFMA): five limbs per element, each ymm register holding one limb of
; four field elements (one per 64-bit lane), so the four products of a
; ladder level run as one vpmadd52luq/vpmadd52huq schoolbook. Secret:
; every field element and scalar bit; no branch or address depends on
; them (the swap is a permutation by an index vector built from the bit).
;
; C prototype (kernels/src/c25519/fe4.h):
;   void vg_x25519_ladder_ifma(vg_fe4 xz[2], const uint8_t e[32], const vg_fe4 *x1);
; the same contract as vg_x25519_ladder_base/adx: RFC 7748's loop over
; bits 254..0 of e from (1, 0), (x1, 1); writes xz[0] = x2, xz[1] = z2
; (any representative below 2^256).
;
; Representation: radix 2^51, limbs l0..l4 at weights 2^0, 2^51, ..,
; 2^204, fed to the 52-bit multiplier with a bit of headroom. The
; instructions read only the low 52 bits of each operand, so every
; multiplication input has all limbs below 2^52 ("normalized"); a single
; parallel carry pass keeps them there, which radix 2^52 could not (it
; needs a serial carry; a first radix-2^52 version was slower than adx).
; A product's high halves (bits 52..103) land at
; weight 2 * 2^51(i+j+1): they are summed apart and doubled. A ladder step
; is three 4-lane levels:
;   1: (A, B, C, D) x (A, B, B, A)      -> (AA, BB, CB, DA)
;   2: (AA, s, d, E) x (BB, s, d, a24)  -> (x2', x3', d^2, a24 E)
;      s = DA + CB, d = DA - CB, E = AA - BB
;   3: (d^2, AA + a24 E) x (x1, E)      -> (z3', z2')   (lanes 2, 3 idle)
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe52_macros.asm"

RODATA
align 8
c_a24:  dq 121665
c_one:  dq 1
align 32
; vpermq index vectors for a step without swap (the swap bit flips bit 0
; of every index, exchanging lanes 0 and 1 of the state vectors):
c_iP1:  dq 0, 0, 1, 1            ; (x2, x2, x3, x3) from (x2', x3', ..)
c_iQ1:  dq 1, 1, 0, 0            ; (z2, z2, z3, z3) from (z3', z2', ..)
c_iQB:  dq 1, 1, 1, 1            ; (z2, z2, z2, z2); (x2 ..) is index 0

; The state between steps is the level-2 product (x2', x3', ..) in the
; frame and the level-3 product (z3', z2', ..) in ymm 5-9; the next
; step's conditional swap is folded into the permutations that build its
; level-1 inputs, through index vectors flipped by the swap bit (vpermq
; with a register index: no data-dependent timing, no secret address).
;
; Register map (ymm): 0-4 first operand, 24-28 second operand; 5-13
; low-half columns L0..L8 (5-9 the product), 14-22 high-half columns
; H0..H8 (free between products: scratch for the input preparation);
; 23, 29-31 scratch. k1..k5: lane masks (public constants).

; Frame (32-byte aligned): the level-2 product, the level-2 input W2
; (then the last level-3 product), x1 in every lane, the output staging;
; all secret, wiped before returning.
%define F_Y2  0
%define F_W2  160
%define F_X1  320
%define F_V   480
%define F_SIZE 640

FUNC vg_x25519_ladder_ifma
    mov r11, rsp                ; restored at the end (public)
    and rsp, -32
    sub rsp, F_SIZE
    ; x1: 4 x 64 -> 5 x 51 (l4 = bits 204..255 < 2^52), into every lane
    mov rax, [rdx]
    mov r8, [rdx + 8]
    mov r9, [rdx + 16]
    mov r10, [rdx + 24]
    mov rcx, 0x7ffffffffffff
    mov rdx, rax
    and rdx, rcx
    vpbroadcastq ymm0, rdx
    shrd rax, r8, 51
    and rax, rcx
    vpbroadcastq ymm1, rax
    shrd r8, r9, 38
    and r8, rcx
    vpbroadcastq ymm2, r8
    shrd r9, r10, 25
    and r9, rcx
    vpbroadcastq ymm3, r9
    shr r10, 12
    vpbroadcastq ymm4, r10
    mov eax, 0x5
    kmovw k1, eax               ; lanes 0, 2
    mov eax, 0x2
    kmovw k2, eax               ; lane 1
    mov eax, 0x1
    kmovw k3, eax               ; lane 0
    mov eax, 0x8
    kmovw k4, eax               ; lane 3
    mov eax, 0x9
    kmovw k5, eax               ; lanes 0, 3
    ; state: (x2, x3) = (1, x1) in the frame, (z3, z2) = (1, 0) in 5-9
%assign i 0
%rep 5
%assign rz 5 + i
    vmovdqa64 [rsp + F_X1 + 32 * i], ymm%[i]
    vpxorq ymm%[i]{k3}, ymm%[i], ymm%[i]
    vpxorq ymm%[rz], ymm%[rz], ymm%[rz]
%assign i i + 1
%endrep
    vpbroadcastq ymm0{k3}, [c_one]
    vpbroadcastq ymm5{k3}, [c_one]
%assign i 0
%rep 5
    vmovdqa64 [rsp + F_Y2 + 32 * i], ymm%[i]
%assign i i + 1
%endrep
    xor r9d, r9d                ; swap (secret)
    mov r8d, 254                ; bit position t (public)

.step:
    ; k_t = bit t of e; s = swap ^ k_t flips the index vectors; swap = k_t
    mov rax, r8
    shr rax, 3                  ; byte index t / 8: public
    movzx eax, byte [rsi + rax]
    mov ecx, r8d
    and ecx, 7
    shr eax, cl
    and eax, 1
    xor r9, rax
    vpbroadcastq ymm31, r9      ; (s, s, s, s); index for (x2, x2, x2, x2)
    mov r9, rax
    vpxorq ymm10, ymm31, [c_iP1]
    vpxorq ymm11, ymm31, [c_iQ1]
    vpxorq ymm12, ymm31, [c_iQB]

    ; level 1: first (x2, x2, x3, x3) +- (z2, z2, z3, z3) = (A, B, C, D),
    ; second (x2, x2, x2, x2) +- (z2, z2, z2, z2) = (A, B, B, A)
%assign i 0
%rep 5
%if i == 0
%define TWOP c_kp0
%else
%define TWOP c_kp1
%endif
%assign rz 5 + i
%assign rb 24 + i
    vmovdqa64 ymm13, [rsp + F_Y2 + 32 * i]
    vpermq ymm14, ymm10, ymm13
    vpermq ymm15, ymm11, ymm%[rz]
    vpaddq ymm%[i], ymm14, [TWOP]{1to4}
    vpsubq ymm%[i], ymm%[i], ymm15
    vpaddq ymm%[i]{k1}, ymm14, ymm15
%assign i i + 1
%endrep
    PCARRY 0
%assign i 0
%rep 5
%assign rb 24 + i
    vpermq ymm%[rb], ymm%[i], 0x14      ; (A, B, B, A)
%assign i i + 1
%endrep
    MUL4 0, 24                          ; (AA, BB, CB, DA)

    ; level 2: W2 = (AA, DA, DA, AA) + (0, CB, -CB, -BB) = (AA, s, d, E),
    ; second (BB, s, d, a24)
%assign i 0
%rep 5
%if i == 0
%define TWOP c_kp0
%else
%define TWOP c_kp1
%endif
%assign ry 5 + i
%assign rb 24 + i
    vpermq ymm14, ymm%[ry], 0x3c
    vpermq ymm15, ymm%[ry], 0x69
    vpaddq ymm%[i], ymm14, [TWOP]{1to4}
    vpsubq ymm%[i], ymm%[i], ymm15
    vmovdqa64 ymm%[rb], ymm%[i]
    vpaddq ymm%[i]{k2}, ymm14, ymm15
    vpaddq ymm%[rb]{k2}, ymm14, ymm15
    vmovdqa64 ymm%[i]{k3}, ymm14
    vmovdqa64 ymm%[rb]{k3}, ymm15
%if i == 0
    vpbroadcastq ymm%[rb]{k4}, [c_a24]
%else
    vpxorq ymm%[rb]{k4}, ymm%[rb], ymm%[rb]
%endif
%assign i i + 1
%endrep
    PCARRY 0
    PCARRY 24
%assign i 0
%rep 5
    vmovdqa64 [rsp + F_W2 + 32 * i], ymm%[i]
%assign i i + 1
%endrep
    MUL4 0, 24                          ; (x2', x3', d^2, a24 E)

    ; level 3: (d^2, AA + a24 E) and (x1, E); the level-2 product goes
    ; to the frame for the next step
%assign i 0
%rep 5
%assign ry 5 + i
%assign rb 24 + i
    vmovdqa64 [rsp + F_Y2 + 32 * i], ymm%[ry]
    vpermq ymm%[i], ymm%[ry], 0xee
    vpbroadcastq ymm14, [rsp + F_W2 + 32 * i]
    vpaddq ymm%[i]{k2}, ymm%[i], ymm14
    vpbroadcastq ymm%[rb], [rsp + F_W2 + 32 * i + 24]
    vmovdqa64 ymm%[rb]{k3}, [rsp + F_X1 + 32 * i]
%assign i i + 1
%endrep
    PCARRY 0
    MUL4 0, 24                          ; (z3', z2', -, -)

    dec r8d
    jns .step                   ; ct: public loop counter t

    ; the last swap: x2 = lane s of the level-2 product, z2 = lane 1 ^ s
    ; of the level-3 product; into lanes 0 and 1
    vpbroadcastq ymm31, r9
    vpxorq ymm12, ymm31, [c_iQB]
%assign i 0
%rep 5
%assign rz 5 + i
    vpermq ymm%[i], ymm31, [rsp + F_Y2 + 32 * i]
    vpermq ymm%[i]{k2}, ymm12, ymm%[rz]
%assign i i + 1
%endrep
    ; one serial carry (limbs < 2^61 in): l1..l4 < 2^51, l0 < 2^51 + 2^16
    SCARRY 0
%assign i 0
%rep 5
    vmovdqa64 [rsp + F_V + 32 * i], ymm%[i]
%assign i i + 1
%endrep
    ; x2 (lane 0) and z2 (lane 1): 5 x 51 -> 4 x 64 (l0 may reach bit 51)
    PACK64 F_V, 2
    ; wipe the frame and every vector register that held secrets
    vpxorq ymm30, ymm30, ymm30
%assign i 0
%rep F_SIZE / 32
    vmovdqa64 [rsp + 32 * i], ymm30
%assign i i + 1
%endrep
    WIPE_HI
    vzeroall
    xor eax, eax
    xor ecx, ecx
    xor edx, edx
    xor r8d, r8d
    xor r9d, r9d
    xor r10d, r10d
    mov rsp, r11
    ret
ENDFUNC vg_x25519_ladder_ifma
