; bad_branch.asm: a deliberately leaky snippet (NOT built into anything):
; a branch on a secret bit. ct_asm_check.py must reject it (should_fail).
%include "x86_64/common/config.asm"
FUNC vg_bad_branch
    mov rax, [rsi]
    test al, 1
    jnz .odd                    ; secret-dependent branch
    mov [rdi], rax
.odd:
    ret
ENDFUNC vg_bad_branch
