; config.asm: settings shared by every nasm file of vgd (x86-64, SysV ABI,
; ELF64, position independent). Include it first. Nothing here is secret.
%ifndef VG_CONFIG_ASM
%define VG_CONFIG_ASM 1

bits 64
; "align" pads code with long NOPs (a loop head aligned to 64 bytes keeps
; its place in the decoded-uop cache wherever the function lands).
%use smartalign
alignmode p6
default rel                 ; every memory operand on a label is RIP-relative (PIC)

; Mark the stack non-executable in every object (the linker would otherwise
; warn and make the whole program's stack executable).
section .note.GNU-stack noalloc noexec nowrite progbits

; FUNC name: start an exported, hidden (library-internal) function, aligned
; for the decoder. ENDFUNC records its size for debuggers and objdump.
%macro FUNC 1
    section .text
    align 32
    global %1:function hidden (%1 %+ _end - %1)
%1:
%endmacro
%macro ENDFUNC 1
%1 %+ _end:
%endmacro

; PUSH_CALLEE / POP_CALLEE: save and restore the six callee-saved
; registers of the SysV ABI (rbx, rbp, r12-r15), in matching order.
%macro PUSH_CALLEE 0
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
%endmacro
%macro POP_CALLEE 0
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
%endmacro

; Read-only data section for constants and tables.
%macro RODATA 0
    section .rodata align=64
%endmacro

%endif
