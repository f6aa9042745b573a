; fe4_inv.asm: the two parts of a batch of the GF(2^255-19) divsteps
; inversion (kernels/src/c25519/fe4_inv.c drives them), for every asm tier
; (x86-64 base instructions only: imul/mul, cmov). Contracts at their C
; references in fe4.h:
;   int64_t vg_fe4_divsteps62(int64_t m[4], int64_t t, uint64_t f, uint64_t g,
;                             unsigned n);
;   void vg_fe4_inv_apply(int64_t fg[10], vg_fe4 de[2], const int64_t m[4]);
; Secret: t, f, g, the matrices, d, e. The only branches are on the public
; step count n and the chunk lengths derived from it; the only addresses
; are the arguments and the stack frame, whose secrets are zeroed before
; returning.
%include "x86_64/common/config.asm"

; DSTEP4: one divstep on the packed words F (r9) and G (r10) with
; nt = -2 delta (rsi); scratch rax, rcx, rdx, r11. Each of F and G carries
; its value's low bits and its matrix row (W = w + 2^22 a + 2^43 b, the
; rows scaled by 2^c for a c-step chunk, c <= 19; see vg_fe4_divsteps_c),
; so one add and one arithmetic shift update both. When delta > 0 and g
; is odd: (delta, f, g) <- (1 - delta, g, (g - f)/2), else (1 + delta, f,
; (g + (g & 1) f)/2). Every candidate is computed first, from F, G and nt
; alone (G + F, G - F, the new F on a swap, -nt - 2 and nt - 2); the
; sign of nt then picks between the pairs and the parity of g applies the
; pick, so the chain from one G to the next is one add, two cmovs and the
; shift (4 cycles; the former step, whose negation of F waited for the
; swap, took ~5.5).
%macro DSTEP4 0
    lea rax, [r10 + r9]         ; G + F
    mov rdx, r10
    sub rdx, r9                 ; G - F
    mov rcx, r9                 ; the new F without a swap
    lea r11, [rsi + 2]
    neg r11                     ; -nt - 2: the new nt after a swap
    test rsi, rsi               ; SF: nt < 0, i.e. delta > 0
    cmovs rax, rdx              ; delta > 0: G - F
    cmovs rcx, r10              ; delta > 0: the new F is G (if g is odd)
    lea rsi, [rsi - 2]          ; nt - 2: the new nt without a swap
    cmovns r11, rsi             ; the new nt when g is odd
    test r10b, 1
    cmovnz r10, rax             ; g odd: G +- F
    cmovnz r9, rcx
    cmovnz rsi, r11
    sar r10, 1                  ; /2, value and row
%endmacro

; UNPACK W, A, B: the row (a, b) of a finished chunk's word W:
; Y = (W + 2^21) >> 22 = a + 2^21 b (|w| < 2^21), a = Y's low 21 bits
; sign-extended (|a| <= 2^19), b = (Y - a) >> 21. W becomes b; A gets a.
%macro UNPACK 2
    mov eax, 1 << 21
    add %1, rax
    sar %1, 22
    mov %2, %1
    shl %2, 43
    sar %2, 43
    sub %1, %2
    sar %1, 21
%endmacro

; PACK F, G: the packed words of a c-step chunk (c = ebx) from the low
; bits fk (F), gk (G): F = low20(fk) + 2^(22 + c), G = low20(gk) + 2^(43
; + c). Clobbers rax, rcx.
%macro PACK 2
    and %1, (1 << 20) - 1
    and %2, (1 << 20) - 1
    mov ecx, ebx
    mov eax, 1
    shl rax, cl                 ; 2^c (c public)
    mov rcx, rax
    shl rax, 22
    add %1, rax
    shl rcx, 43
    add %2, rcx
%endmacro

; The frame of vg_fe4_divsteps62.
%define S_F     0               ; f (the batch's low word)
%define S_G     8               ; g
%define S_SIZE  16

; int64_t vg_fe4_divsteps62(int64_t m[4], int64_t t, uint64_t f, uint64_t g,
;                           unsigned n)
; n divsteps (1 <= n <= 62) on the low 64 bits of f (odd) and g, t = 2
; delta (odd): chunks of at most 19 steps in the packed words, each later
; chunk started from the low bits of (u f + v g) / 2^s, (q f + r g) / 2^s
; (s the steps done, the matrix so far u, v, q, r: exact in 64 - s >=
; c + 1 bits), its matrix then multiplied into the batch's. Returns the
; new t, writes m = (u, v, q, r): f_n 2^n = u f + v g, g_n 2^n = q f + r g.
; Registers: the matrix so far r12-r15, s rbp, n r8, the chunk's
; remaining steps rbx; the steps' F r9, G r10, nt rsi.
FUNC vg_fe4_divsteps62
    PUSH_CALLEE
    sub rsp, S_SIZE
    mov [rsp + S_F], rdx
    mov [rsp + S_G], rcx
    neg rsi                     ; nt = -t
    mov r9, rdx
    mov r10, rcx
    xor ebp, ebp                ; s = 0
    mov r12d, 1                 ; the matrix so far: the identity
    xor r13d, r13d
    xor r14d, r14d
    mov r15d, 1
.chunk:
    mov ebx, r8d
    sub ebx, ebp                ; n - s (public)
    mov eax, 19
    cmp ebx, eax
    cmova ebx, eax              ; c = min(19, n - s)
    PACK r9, r10
    mov r11d, ebx               ; c, for s below
    add ebp, r11d
    test ebx, 1                 ; an odd count: one step first, then pairs
    jz .pair                    ; ct: public step count
    DSTEP4
    dec ebx
    jz .steps_done              ; ct: public step count
.pair:                          ; two steps a turn: half the loop overhead
    DSTEP4
    DSTEP4
    sub ebx, 2
    jnz .pair                   ; ct: public step count
.steps_done:
    UNPACK r9, rdx              ; K = (rdx, r9; rcx, r10)
    UNPACK r10, rcx
    ; the matrix so far M <- K M
    mov rax, rdx
    imul rax, r12
    mov r11, r9
    imul r11, r14
    add rax, r11                ; Ku Mu + Kv Mq
    imul rdx, r13
    imul r9, r15
    add rdx, r9                 ; Ku Mv + Kv Mr
    mov r11, rcx
    imul r11, r12
    mov r9, r10
    imul r9, r14
    add r11, r9                 ; Kq Mu + Kr Mq
    imul rcx, r13
    imul r10, r15
    add rcx, r10                ; Kq Mv + Kr Mr
    mov r12, rax
    mov r13, rdx
    mov r14, r11
    mov r15, rcx
    cmp ebp, r8d
    jae .done                   ; ct: public step counts
    ; the next chunk's low bits: (u f + v g) >> s, (q f + r g) >> s
    mov r9, [rsp + S_F]
    mov rax, [rsp + S_G]
    mov r10, r9
    imul r9, r12
    mov rdx, rax
    imul rdx, r13
    add r9, rdx
    imul r10, r14
    imul rax, r15
    add r10, rax
    mov ecx, ebp
    shr r9, cl
    shr r10, cl
    jmp .chunk
.done:
    mov [rdi], r12
    mov [rdi + 8], r13
    mov [rdi + 16], r14
    mov [rdi + 24], r15
    mov rax, rsi
    neg rax                     ; t = -nt
    xor edx, edx
    mov [rsp + S_F], rdx
    mov [rsp + S_G], rdx
    add rsp, S_SIZE
    POP_CALLEE
    ret
ENDFUNC vg_fe4_divsteps62

; APPLY_FG O, A, B: one row of the matrix on f and g (5 signed 62-bit
; limbs at [rdi], [rdi + 40], the top one signed) into the stack slots
; [rsp + O ...]: (A f + B g) / 2^62, exact (the low 62 bits are zero by
; construction; for the last, shorter batch only the floor, whose sign is
; all that is used). A, B: the row's registers. The 128-bit sum is
; rbx:rbp; uses rax, rdx.
%macro APPLY_FG 3
    mov rax, [rdi]
    imul %2
    mov rbp, rax
    mov rbx, rdx
    mov rax, [rdi + 40]
    imul %3
    add rbp, rax
    adc rbx, rdx
    shrd rbp, rbx, 62
    sar rbx, 62
%assign %%i 1
%rep 4
    mov rax, [rdi + 8 * %%i]
    imul %2
    add rbp, rax
    adc rbx, rdx
    mov rax, [rdi + 40 + 8 * %%i]
    imul %3
    add rbp, rax
    adc rbx, rdx
    mov rax, rbp
    shl rax, 2
    shr rax, 2
    mov [rsp + %1 + 8 * (%%i - 1)], rax
    shrd rbp, rbx, 62
    sar rbx, 62
%assign %%i %%i + 1
%endrep
    mov [rsp + %1 + 32], rbp
%endmacro

; SUBMASKED A, O: r9 r10 r11 rcx -= the four limbs at [rsi + O] if A < 0.
; Uses rax, rdx, rbx, rbp.
%macro SUBMASKED 2
    mov rbp, %1
    sar rbp, 63
    mov rax, [rsi + %2]
    and rax, rbp
    mov rdx, [rsi + %2 + 8]
    and rdx, rbp
    mov rbx, [rsi + %2 + 16]
    and rbx, rbp
    and rbp, [rsi + %2 + 24]
    sub r9, rax
    sbb r10, rdx
    sbb r11, rbx
    sbb rcx, rbp
%endmacro

; LIN A, B, O: h = A d + B e mod p (A, B: signed, |A|, |B| <= 2^62, in
; registers; d, e: below 2^256 at [rsi], [rsi + 32]) to the stack slots
; [rsp + O ...], below 2^256. A d + B e is computed modulo 2^320 as the
; unsigned products of A and B mod 2^64 less d 2^64 (e 2^64) when A (B)
; is negative; it is below 2^319 in magnitude, so the top limb is its
; signed part H above 2^256. Then L + 2^256 H = L + 38 H (mod p), whose
; own top c (-1, 0 or 1) is folded the same way once more: a carry left
; the low part tiny, a borrow left it near 2^256, so that fold cannot
; overflow (the C reference lin(), bit for bit). Uses rax, rdx, rcx,
; r8-r11 and rbx, rbp (the products' limbs).
%macro LIN 3
    mov rax, [rsi]
    mul %1
    mov r8, rax
    mov r9, rdx
    mov rax, [rsi + 8]
    mul %1
    add r9, rax
    mov r10, rdx
    adc r10, 0
    mov rax, [rsi + 16]
    mul %1
    add r10, rax
    mov r11, rdx
    adc r11, 0
    mov rax, [rsi + 24]
    mul %1
    add r11, rax
    mov rcx, rdx
    adc rcx, 0                  ; (A mod 2^64) d: r8 r9 r10 r11 rcx
    mov rax, [rsi + 32]
    mul %2
    add r8, rax
    mov rbx, rdx
    adc rbx, 0
    mov rax, [rsi + 40]
    mul %2
    add rax, rbx
    mov rbx, rdx
    adc rbx, 0
    add r9, rax
    adc rbx, 0
    mov rax, [rsi + 48]
    mul %2
    add rax, rbx
    mov rbx, rdx
    adc rbx, 0
    add r10, rax
    adc rbx, 0
    mov rax, [rsi + 56]
    mul %2
    add rax, rbx
    adc rdx, 0
    add r11, rax
    adc rcx, rdx                ; + (B mod 2^64) e, mod 2^320
    ; the signs: less d 2^64 when A < 0, e 2^64 when B < 0 (the masked
    ; limbs first: and clears the borrow)
    SUBMASKED %1, 0
    SUBMASKED %2, 32                ; H, signed
    ; + 38 H: signed, sign-extended over the four limbs; the new top is
    ; the sign extension plus the carry out
    mov rax, rcx
    mov ecx, 38
    imul rcx                    ; rdx:rax = 38 H
    mov rbx, rdx
    sar rbx, 63
    mov rbp, rbx
    add r8, rax
    adc r9, rdx
    adc r10, rbx
    adc r11, rbx
    adc rbp, 0                  ; c = -1, 0 or 1
    imul rbp, rbp, 38
    mov rbx, rbp
    sar rbx, 63
    add r8, rbp
    adc r9, rbx
    adc r10, rbx
    adc r11, rbx
    mov [rsp + %3], r8
    mov [rsp + %3 + 8], r9
    mov [rsp + %3 + 16], r10
    mov [rsp + %3 + 24], r11
%endmacro

; The frame of vg_fe4_inv_apply: the new f, g, d, e, then copied out.
%define A_F     0
%define A_G     40
%define A_D     80
%define A_E     112
%define A_SIZE  144

; void vg_fe4_inv_apply(int64_t fg[10], vg_fe4 de[2], const int64_t m[4])
; f, g (fg[0..5), fg[5..10): 62-bit limbs, the top one signed) <- M (f, g)
; / 2^62 and d, e (de[0], de[1], below 2^256) <- M (d, e) mod p, below
; 2^256, for M = (u, v; q, r) = m: the batch's matrix applied (the C
; reference: vg_fe4_inv_apply_c). f and g first: the next batch waits for
; them, not for d and e.
FUNC vg_fe4_inv_apply
    PUSH_CALLEE
    sub rsp, A_SIZE + 8
    mov r12, [rdx]              ; u
    mov r13, [rdx + 8]          ; v
    mov r14, [rdx + 16]         ; q
    mov r15, [rdx + 24]         ; r
    APPLY_FG A_F, r12, r13
    APPLY_FG A_G, r14, r15
%assign i 0
%rep 10
    mov rax, [rsp + A_F + 8 * i]
    mov [rdi + 8 * i], rax
%assign i i + 1
%endrep
    LIN r12, r13, A_D
    LIN r14, r15, A_E
%assign i 0
%rep 8
    mov rax, [rsp + A_D + 8 * i]
    mov [rsi + 8 * i], rax
%assign i i + 1
%endrep
    xor eax, eax
%assign i 0
%rep A_SIZE / 8
    mov [rsp + 8 * i], rax
%assign i i + 1
%endrep
    add rsp, A_SIZE + 8
    POP_CALLEE
    ret
ENDFUNC vg_fe4_inv_apply
