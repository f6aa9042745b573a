; bad_loop.asm: deliberately leaky functions (NOT built into anything),
; one per kernel family: a pointer argument overwritten with data inside a
; loop, so the next turn's address is secret. ct_asm_check.py must reject
; every one (should_fail, one test per function): the first turn alone
; looks clean, only the analysis of the loop sees it.
%include "x86_64/common/config.asm"

; Curve25519: the table pointer replaced by a loaded value.
FUNC vg_ge4_comb_bad_loop
    mov ecx, 32                 ; public counter
.row:
    mov rax, [rsi]
    mov [rdi], rax
    mov rsi, [rsi + 8]          ; data, next turn's address
    dec ecx
    jnz .row
    ret
ENDFUNC vg_ge4_comb_bad_loop

; RSA: the operand pointer replaced by a limb.
FUNC vg_mont_mul_bad_loop
    mov ebp, 16                 ; public row counter
.row:
    mov rsi, [rsi]              ; data, next turn's address
    dec ebp
    jne .row
    ret
ENDFUNC vg_mont_mul_bad_loop

; P-384: the digits pointer advanced by a digit instead of by one.
FUNC vg_p384_comb_bad_loop
    mov ecx, 55                 ; public row counter
.row:
    movsx rax, byte [rdx]
    add rdx, rax                ; data, next turn's address
    dec ecx
    jnz .row
    ret
ENDFUNC vg_p384_comb_bad_loop
