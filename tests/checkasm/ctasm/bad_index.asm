; bad_index.asm: a deliberately leaky snippet (NOT built into anything):
; a table read indexed by a secret value. ct_asm_check.py must reject it.
%include "x86_64/common/config.asm"
FUNC vg_bad_index
    mov rax, [rsi]
    and eax, 15
    mov rax, [rdi + 8 * rax]    ; secret-dependent address
    mov [rdi], rax
    ret
ENDFUNC vg_bad_index
