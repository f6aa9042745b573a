; selftest_funcs.asm: tiny functions for the harness's own tests: one that
; follows the ABI and a few that break it on purpose (each must be caught).
; Nothing here is secret.
%include "x86_64/common/config.asm"

; uint64_t vg_checkasm_st_good(a1..a8): sum of i * a_i, reading the two
; stack arguments, so argument forwarding is checked too.
FUNC vg_checkasm_st_good
    push rbx                    ; uses and restores a callee-saved register
    lea rax, [rdi + 2 * rsi]
    lea rbx, [rdx + 2 * rdx]
    add rax, rbx
    lea rax, [rax + 4 * rcx]
    lea rbx, [r8 + 4 * r8]
    add rax, rbx
    imul rbx, r9, 6
    add rax, rbx
    imul rbx, [rsp + 16], 7     ; a7 (past the return address and rbx)
    add rax, rbx
    mov rbx, [rsp + 24]         ; a8
    lea rax, [rax + 8 * rbx]
    pop rbx
    ret
ENDFUNC vg_checkasm_st_good

; void vg_checkasm_st_clobber(void): breaks r13.
FUNC vg_checkasm_st_clobber
    not r13
    ret
ENDFUNC vg_checkasm_st_clobber

; void vg_checkasm_st_overflow(uint8_t out[32]): writes 33 bytes.
FUNC vg_checkasm_st_overflow
    xor eax, eax
    mov [rdi], rax
    mov [rdi + 8], rax
    mov [rdi + 16], rax
    mov [rdi + 24], rax
    mov [rdi + 32], al
    ret
ENDFUNC vg_checkasm_st_overflow

; void vg_checkasm_st_df(void): leaves the direction flag set.
FUNC vg_checkasm_st_df
    std
    ret
ENDFUNC vg_checkasm_st_df
