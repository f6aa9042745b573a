; checkasm_call.asm: the checkasm trampoline. Calls an assembly function
; with the callee-saved registers (rbx, rbp, r12-r15) set to random values
; and junk on the stack below it, and checks after the call that those
; registers still hold their values, that the direction flag is clear, and
; that the caller's stack was aligned; every problem sets a bit in
; vg_checkasm_flags for the C side (checkasm.c) to report.
; Nothing here is secret.
%include "x86_64/common/config.asm"

section .bss
align 16
global vg_checkasm_regs
vg_checkasm_regs:  resq 6     ; values for rbx, rbp, r12, r13, r14, r15
global vg_checkasm_flags
vg_checkasm_flags: resq 1     ; failure bits, see checkasm.h

section .text
; uint64_t vg_checkasm_call_raw(fn, a1, ..., a8)   (declared variadic in C)
; fn in rdi; a1-a5 in rsi, rdx, rcx, r8, r9; a6-a8 at [rsp+8..24] on entry.
; The callee gets a1-a6 in rdi..r9 and a7, a8 on its stack, 16-aligned.
global vg_checkasm_call_raw
vg_checkasm_call_raw:
    ; ABI: at entry rsp + 8 is a multiple of 16. Check the caller kept it.
    lea rax, [rsp + 8]
    test al, 15
    jz .aligned
    or qword [vg_checkasm_flags], 1 << 6
.aligned:
    push rbp
    push rbx
    push r12
    push r13
    push r14
    push r15
    sub rsp, 40                 ; 6 pushes + 40 = 88: rsp is 16-aligned here
    ; Junk in the 8 KiB below the callee's frame, so a function that reads a
    ; stack word it never wrote sees garbage, not the zeros its previous
    ; call's wipe left there.
    mov rax, [vg_checkasm_regs]
    lea r10, [rsp - 8192]
.poison:
    mov [r10], rax
    add r10, 8
    cmp r10, rsp
    jb .poison
    ; entry rsp = rsp + 88: a6 at [rsp + 96], a7 at [rsp + 104], a8 at [rsp + 112]
    mov rax, [rsp + 104]
    mov [rsp], rax              ; callee's 7th argument
    mov rax, [rsp + 112]
    mov [rsp + 8], rax          ; callee's 8th argument
    mov r11, rdi
    mov rdi, rsi
    mov rsi, rdx
    mov rdx, rcx
    mov rcx, r8
    mov r8, r9
    mov r9, [rsp + 96]
    mov rbx, [vg_checkasm_regs]
    mov rbp, [vg_checkasm_regs + 8]
    mov r12, [vg_checkasm_regs + 16]
    mov r13, [vg_checkasm_regs + 24]
    mov r14, [vg_checkasm_regs + 32]
    mov r15, [vg_checkasm_regs + 40]
    mov r10, rbx                ; scratch registers get junk too
    xor r10, r15
    mov rax, r10
    call r11
    ; rax (and rdx) hold the callee's result: use r10/r11 only from here.
    xor r11d, r11d
    cmp rbx, [vg_checkasm_regs]
    je .1
    or r11d, 1 << 0
.1: cmp rbp, [vg_checkasm_regs + 8]
    je .2
    or r11d, 1 << 1
.2: cmp r12, [vg_checkasm_regs + 16]
    je .3
    or r11d, 1 << 2
.3: cmp r13, [vg_checkasm_regs + 24]
    je .4
    or r11d, 1 << 3
.4: cmp r14, [vg_checkasm_regs + 32]
    je .5
    or r11d, 1 << 4
.5: cmp r15, [vg_checkasm_regs + 40]
    je .6
    or r11d, 1 << 5
.6: pushfq
    pop r10
    test r10d, 1 << 10          ; DF must be clear on return (ABI)
    jz .7
    or r11d, 1 << 7
    cld
.7: or [vg_checkasm_flags], r11
    add rsp, 40
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbx
    pop rbp
    ret
