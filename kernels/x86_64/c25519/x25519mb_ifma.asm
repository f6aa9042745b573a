; x25519mb_ifma.asm: the ifma row of the c25519_mb family
; (kernels/src/c25519/c25519_mb_impl.h): eight independent X25519
; Montgomery ladders at once, one per 64-bit lane of zmm registers (each
; lane its own scalar and u-coordinate), and the eight-lane field multiply
; and repeated squaring the inversion chain is built from. Field elements
; are transposed radix-2^51 (fe51mb_macros.asm).
; Secret: every field element and scalar bit. No branch and no address
; depends on them: the only branches are loop counters (the ladder's bit
; position, the squaring count n); addresses are argument pointers or the
; frame plus constants, and the ladder's scalar word at a public offset
; (bit position / 64). The swap is a blend under a lane mask built from
; the scalar bits by a vector test.
;
; void vg_x25519mb_ladder_ifma(uint64_t xz[80], const uint64_t e[32],
;                              const uint64_t x1[40]);
;   e: the clamped scalars, word w of lane l at e[8 w + l]; x1: the
;   u-coordinates (limbs below 2^52). RFC 7748's loop over bits 254..0
;   from (x2, z2) = (1, 0), (x3, z3) = (x1, 1); writes x2 to xz[0..39]
;   and z2 to xz[40..79] (limbs below 2^52, any representative).
; void vg_fe51mb_mul_ifma(uint64_t h[40], const uint64_t f[40],
;                         const uint64_t g[40]);       h = f g
; void vg_fe51mb_sqrn_ifma(uint64_t h[40], const uint64_t f[40], size_t n);
;                                                      h = f^(2^n), n >= 1
; Inputs with limbs below 2^52, outputs likewise; h may alias f or g.
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe51mb_macros.asm"

; Frame (64-byte aligned), element slots of 320 bytes; all secret, wiped
; before returning.
%define S_X2   0
%define S_Z2   320
%define S_X3   640
%define S_Z3   960
%define S_X1   1280
%define S_A    1600
%define S_B    1920
%define S_C    2240
%define S_D    2560
%define S_AA   2880
%define S_BB   3200
%define S_E    3520
%define S_DA   3840
%define S_CB   4160
%define S_T    4480
%define F_SIZE 4800

; CSWAPZ a, b: exchange the elements at [rsp + a] and [rsp + b] in the
; lanes of mask k2.
%macro CSWAPZ 2
%assign %%i 0
%rep 5
    vmovdqa64 zmm0, [rsp + %1 + 64 * %%i]
    vmovdqa64 zmm1, [rsp + %2 + 64 * %%i]
    vpblendmq zmm2{k2}, zmm0, zmm1
    vpblendmq zmm3{k2}, zmm1, zmm0
    vmovdqa64 [rsp + %1 + 64 * %%i], zmm2
    vmovdqa64 [rsp + %2 + 64 * %%i], zmm3
%assign %%i %%i + 1
%endrep
%endmacro

FUNC vg_x25519mb_ladder_ifma
    mov r11, rsp                ; restored at the end (public)
    and rsp, -64
    sub rsp, F_SIZE
    ; (x2, z2, x3, z3) = (1, 0, x1, 1); x1 kept
    vpxorq zmm6, zmm6, zmm6
    vpbroadcastq zmm5, [mb_one]
%assign i 0
%rep 5
    vmovdqu64 zmm0, [rdx + 64 * i]
    vmovdqa64 [rsp + S_X1 + 64 * i], zmm0
    vmovdqa64 [rsp + S_X3 + 64 * i], zmm0
    vmovdqa64 [rsp + S_Z2 + 64 * i], zmm6
%if i == 0
    vmovdqa64 [rsp + S_X2 + 64 * i], zmm5
    vmovdqa64 [rsp + S_Z3 + 64 * i], zmm5
%else
    vmovdqa64 [rsp + S_X2 + 64 * i], zmm6
    vmovdqa64 [rsp + S_Z3 + 64 * i], zmm6
%endif
%assign i i + 1
%endrep
    kxorw k3, k3, k3            ; swap (secret), per lane
    mov r8d, 254                ; bit position t (public)

align 64
.step:
    ; k1 = bit t of each lane's scalar; k2 = swap ^ k1; swap = k1
    mov eax, r8d
    shr eax, 6
    shl eax, 6                  ; byte offset of word t / 64: public
    vmovdqu64 zmm30, [rsi + rax]
    mov ecx, r8d
    and ecx, 63
    vmovq xmm31, rcx
    vpsrlq zmm30, zmm30, xmm31
    vptestmq k1, zmm30, [mb_one]{1to8}
    kxorw k2, k1, k3
    kmovw k3, k1
    CSWAPZ S_X2, S_X3
    CSWAPZ S_Z2, S_Z3

    FADDZ rsp + S_A, rsp + S_X2, rsp + S_Z2     ; A = x2 + z2
    FSUBZ rsp + S_B, rsp + S_X2, rsp + S_Z2     ; B = x2 - z2
    FADDZ rsp + S_C, rsp + S_X3, rsp + S_Z3     ; C = x3 + z3
    FSUBZ rsp + S_D, rsp + S_X3, rsp + S_Z3     ; D = x3 - z3
    FSQRZ rsp + S_AA, rsp + S_A                 ; AA = A^2
    FSQRZ rsp + S_BB, rsp + S_B                 ; BB = B^2
    FMULZ rsp + S_DA, rsp + S_D, rsp + S_A      ; DA = D A
    FMULZ rsp + S_CB, rsp + S_C, rsp + S_B      ; CB = C B
    FADDZ rsp + S_X3, rsp + S_DA, rsp + S_CB
    FSQRZ rsp + S_X3, rsp + S_X3                ; x3 = (DA + CB)^2
    FSUBZ rsp + S_Z3, rsp + S_DA, rsp + S_CB
    FSQRZ rsp + S_Z3, rsp + S_Z3
    FMULZ rsp + S_Z3, rsp + S_Z3, rsp + S_X1    ; z3 = x1 (DA - CB)^2
    FMULZ rsp + S_X2, rsp + S_AA, rsp + S_BB    ; x2 = AA BB
    FSUBZ rsp + S_E, rsp + S_AA, rsp + S_BB     ; E = AA - BB
    FA24Z rsp + S_T, rsp + S_E, rsp + S_AA      ; AA + a24 E
    FMULZ rsp + S_Z2, rsp + S_E, rsp + S_T      ; z2 = E (AA + a24 E)

    dec r8d
    jns .step                   ; ct: public loop counter t

    ; the last swap, then x2 and z2 out
    kmovw k2, k3
    CSWAPZ S_X2, S_X3
    CSWAPZ S_Z2, S_Z3
%assign i 0
%rep 5
    vmovdqa64 zmm0, [rsp + S_X2 + 64 * i]
    vmovdqu64 [rdi + 64 * i], zmm0
    vmovdqa64 zmm1, [rsp + S_Z2 + 64 * i]
    vmovdqu64 [rdi + 320 + 64 * i], zmm1
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
    xor eax, eax
    xor ecx, ecx
    mov rsp, r11
    ret
ENDFUNC vg_x25519mb_ladder_ifma

FUNC vg_fe51mb_mul_ifma
    FMULZ rdi, rsi, rdx
    WIPEZ
    ret
ENDFUNC vg_fe51mb_mul_ifma

FUNC vg_fe51mb_sqrn_ifma
    LOADZ 0, rsi
align 32
.sq:
    SQRZ
%assign i 0
%rep 5
%assign r 5 + i
    vmovdqa64 zmm%[i], zmm%[r]
%assign i i + 1
%endrep
    dec rdx
    jnz .sq                     ; ct: public count n
    STOREZ rdi, 0
    WIPEZ
    ret
ENDFUNC vg_fe51mb_sqrn_ifma
