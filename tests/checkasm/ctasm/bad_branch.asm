; bad_branch.asm: deliberately leaky functions (NOT built into anything),
; one per kernel family, each with a branch on a secret: ct_asm_check.py
; must reject every one (should_fail, one test per function). Named so
; that the family's entry rule applies.
%include "x86_64/common/config.asm"

; Curve25519: a branch on a bit of the field element f.
FUNC vg_fe4_mul_bad_branch
    mov rax, [rsi]
    test al, 1
    jnz .odd                    ; secret-dependent branch
    mov [rdi], rax
.odd:
    ret
ENDFUNC vg_fe4_mul_bad_branch

; RSA: a branch on an operand limb being zero.
FUNC vg_mont_mul_bad_branch
    mov rax, [rsi]
    test rax, rax
    je .zero                    ; secret-dependent branch
    mov [rdi], rax
.zero:
    ret
ENDFUNC vg_mont_mul_bad_branch

; P-256: the final subtraction of a multiply done by a branch on its
; borrow instead of cmov.
FUNC vg_p256_mul_bad_branch
    mov rax, [rsi]
    sub rax, [rdx]
    jc .keep                    ; secret-dependent branch
    mov [rdi], rax
.keep:
    ret
ENDFUNC vg_p256_mul_bad_branch

; SHA-256: a branch on a message byte.
FUNC vg_sha256_blocks_bad_branch
    movzx eax, byte [rsi]
    cmp eax, 0x80
    je .pad                     ; secret-dependent branch
    mov [rdi], eax
.pad:
    ret
ENDFUNC vg_sha256_blocks_bad_branch
