; bad_index.asm: deliberately leaky functions (NOT built into anything),
; one or more per kernel family, each reading memory at a secret index:
; ct_asm_check.py must reject every one (should_fail, one test per
; function). Named so that the family's entry rule applies.
%include "x86_64/common/config.asm"

; Curve25519: a table read indexed by a nibble of the scalar.
FUNC vg_x25519_ladder_bad_index
    mov rax, [rsi]
    and eax, 15
    mov rax, [rdx + 8 * rax]    ; secret-dependent address
    mov [rdi], rax
    ret
ENDFUNC vg_x25519_ladder_bad_index

; RSA: a modulus digit indexed by an operand digit.
FUNC vg_amm52x2_bad_index
    mov rax, [rsi]
    mov rax, [rcx + 8 * rax]    ; secret-dependent address
    mov [rdi], rax
    ret
ENDFUNC vg_amm52x2_bad_index

; RSA: the window table indexed by the secret window (rdx) instead of
; scanned.
FUNC vg_rsa52_select2_bad_index
    vmovdqu64 zmm4, [rsi + 8 * rdx] ; secret-dependent address
    vmovdqu64 [rdi], zmm4
    ret
ENDFUNC vg_rsa52_select2_bad_index

; P-256: the comb row read at the secret digit instead of scanned.
FUNC vg_p256_comb_bad_index
    movsx rax, byte [rdx]
    shl rax, 6
    vmovdqu64 zmm0, [rsi + rax] ; secret-dependent address
    vmovdqu64 [rdi], zmm0
    ret
ENDFUNC vg_p256_comb_bad_index
