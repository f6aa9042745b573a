; sha512_x86.asm: the SHA-512 compression function (FIPS 180-4 6.4.2) in
; general registers, with the message schedule in SSE2 (two 64-bit words
; an xmm register) so that it runs on the vector units beside the rounds
; instead of taking the integer ALUs the rounds are bound by. Two
; functions from one body: _base (x86-64 only: the Sigmas by mov and ror)
; and _bmi2 (the Sigmas by rorx, no copies); both take the three
; rotations of a Sigma apart and xor them. Secret: the message and the state. No branch or address
; depends on them: the only branch is the public block counter.
;
; void vg_sha512_blocks_base(uint64_t h[8], const uint8_t *p, size_t nblocks);
; void vg_sha512_blocks_bmi2(uint64_t h[8], const uint8_t *p, size_t nblocks);
;
; Frame: WK[t] = K[t] + W[t] for the 80 rounds (640 bytes, 16-aligned:
; the ABI's alignment at the call, the return address and six pushes
; leave rsp 8 mod 16, and FRAME is 8 mod 16), written by the schedule 16
; rounds ahead of the round that adds it, then the block count. The eight words a..h live in
; r8..r15 and are never moved: each round's macro takes them by name,
; rotated by one for the next round. Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c))
; with this round's a ^ b kept as the next round's b ^ c (rdx and rbp
; alternate), Ch(e, f, g) = g ^ (e & (f ^ g)).
%include "x86_64/common/config.asm"

%define WK_SIZE 640
%define NB      640             ; the remaining block count (public)
%define FRAME   648

; %1 = Sigma1(%2) (ror 14 ^ ror 18 ^ ror 41) and %3 = Sigma0(%4)
; (ror 28 ^ ror 34 ^ ror 39); rcx is the scratch register.
%macro SIGMA1 2
%if RORX
    rorx %1, %2, 14
    rorx rcx, %2, 18
    xor %1, rcx
    rorx rcx, %2, 41
    xor %1, rcx
%else
    ; three copies rotated apart, not the nested ror(ror(ror(x, 23) ^ x,
    ; 4) ^ x, 14): the same five ALU operations (the copies are renamed,
    ; not executed), but a chain of 3 instead of 5 from e to the new e,
    ; which the rounds wait on: base 0.864 of the nested form's time on
    ; Zen 5 (rorx's form, the adx row, was already this shape)
    mov %1, %2
    ror %1, 14
    mov rcx, %2
    ror rcx, 18
    xor %1, rcx
    mov rcx, %2
    ror rcx, 41
    xor %1, rcx
%endif
%endmacro
%macro SIGMA0 2
%if RORX
    rorx %1, %2, 28
    rorx rcx, %2, 34
    xor %1, rcx
    rorx rcx, %2, 39
    xor %1, rcx
%else
    mov %1, %2                  ; as SIGMA1: the chain from a is 3
    ror %1, 28
    mov rcx, %2
    ror rcx, 34
    xor %1, rcx
    mov rcx, %2
    ror rcx, 39
    xor %1, rcx
%endif
%endmacro

; One round: ROUND a, b, c, d, e, f, g, h, t, bc, ab with bc holding b ^ c
; on entry and ab set to a ^ b (the next round's bc). d gets T1 added (the
; new e) and h becomes T1 + T2 (the new a).
%macro ROUND 11
    mov rax, %6
    xor rax, %7
    and rax, %5
    xor rax, %7                 ; Ch(e, f, g)
    add %8, [rsp + 8 * (%9)]    ; h + K[t] + W[t]
    SIGMA1 rbx, %5
    add %8, rax
    add %8, rbx                 ; T1
    add %4, %8                  ; d + T1: the new e
    SIGMA0 rbx, %1
    add %8, rbx
    mov %11, %1
    xor %11, %2                 ; a ^ b
    and %10, %11
    xor %10, %2                 ; Maj(a, b, c)
    add %8, %10                 ; T1 + T2: the new a
%endmacro

; The message schedule for W[t], W[t + 1] (t even, 16 <= t < 80) in the
; ring xmm0..xmm7 (xmm(i mod 8) holds W[2i], W[2i + 1]), then WK[t],
; WK[t + 1]: W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]. The pair
; W[t-15], W[t-14] and W[t-7], W[t-6] straddle two ring registers (shufpd
; takes the high word of one and the low word of the next); the two new
; words need s1 of W[t-2], W[t-1], both already known. xmm8-xmm10 scratch.
%macro SCHED 1
%assign j ((%1) / 2)
%assign r0 (j % 8)              ; W[t-16], W[t-15]: becomes W[t], W[t+1]
%assign r1 ((j + 1) % 8)        ; W[t-14], W[t-13]
%assign r4 ((j + 4) % 8)        ; W[t-8], W[t-7]
%assign r5 ((j + 5) % 8)        ; W[t-6], W[t-5]
%assign r7 ((j + 7) % 8)        ; W[t-2], W[t-1]
    movdqa xmm8, xmm%[r0]
    shufpd xmm8, xmm%[r1], 1    ; x = W[t-15], W[t-14]
    movdqa xmm9, xmm8
    psrlq xmm9, 1
    movdqa xmm10, xmm8
    psllq xmm10, 56
    pxor xmm9, xmm10
    psrlq xmm8, 7
    pxor xmm9, xmm8
    psrlq xmm8, 1
    pxor xmm9, xmm8
    psllq xmm10, 7
    pxor xmm9, xmm10            ; s0(x) = x>>1 ^ x<<63 ^ x>>8 ^ x<<56 ^ x>>7
    paddq xmm%[r0], xmm9
    movdqa xmm8, xmm%[r4]
    shufpd xmm8, xmm%[r5], 1    ; W[t-7], W[t-6]
    paddq xmm%[r0], xmm8
    movdqa xmm8, xmm%[r7]       ; y = W[t-2], W[t-1]
    movdqa xmm9, xmm%[r7]
    psrlq xmm8, 6
    movdqa xmm10, xmm%[r7]
    psllq xmm10, 3
    pxor xmm8, xmm10
    psrlq xmm9, 19
    pxor xmm8, xmm9
    psllq xmm10, 42
    pxor xmm8, xmm10
    psrlq xmm9, 42
    pxor xmm8, xmm9             ; s1(y) = y>>6 ^ y<<3 ^ y>>19 ^ y<<45 ^ y>>61
    paddq xmm%[r0], xmm8
    movdqa xmm8, xmm%[r0]
    paddq xmm8, [rel k512 + 8 * (%1)]
    movdqa [rsp + 8 * (%1)], xmm8
%endmacro

; Byte-swap the two 64-bit words of %1 (SSE2 has no pshufb): reverse the
; four 16-bit words of each half, then the two bytes of each word. %2
; scratch.
%macro BSWAP64X2 2
    pshuflw %1, %1, 0x1b
    pshufhw %1, %1, 0x1b
    movdqa %2, %1
    psrlw %2, 8
    psllw %1, 8
    por %1, %2
%endmacro

; Rounds t and t + 1 (t even), the schedule 16 words ahead first while
; there is one to compute. %1..%8: a..h of round t. The bc/ab registers
; alternate rdx, rbp; t is a multiple of 2, so round t always has bc in
; rdx.
%macro ROUND2 9
%if (%9) < 64
    SCHED (%9) + 16
%endif
    ROUND %1, %2, %3, %4, %5, %6, %7, %8, (%9), rdx, rbp
    ROUND %8, %1, %2, %3, %4, %5, %6, %7, (%9) + 1, rbp, rdx
%endmacro

; Eight rounds from t, with the names back where they started.
%macro ROUND8 1
    ROUND2 r8, r9, r10, r11, r12, r13, r14, r15, (%1)
    ROUND2 r14, r15, r8, r9, r10, r11, r12, r13, (%1) + 2
    ROUND2 r12, r13, r14, r15, r8, r9, r10, r11, (%1) + 4
    ROUND2 r10, r11, r12, r13, r14, r15, r8, r9, (%1) + 6
%endmacro

%macro SHA512_FUNC 2            ; name, RORX (0 or 1)
%define RORX %2
FUNC %1
    test rdx, rdx
    jz .done                    ; ct: public block count
    PUSH_CALLEE
    sub rsp, FRAME
    mov [rsp + NB], rdx
    mov r8, [rdi]
    mov r9, [rdi + 8]
    mov r10, [rdi + 16]
    mov r11, [rdi + 24]
    mov r12, [rdi + 32]
    mov r13, [rdi + 40]
    mov r14, [rdi + 48]
    mov r15, [rdi + 56]
.block:
%assign i 0
%rep 8
    movdqu xmm%[i], [rsi + 16 * i]
    BSWAP64X2 xmm%[i], xmm8
    movdqa xmm9, xmm%[i]
    paddq xmm9, [rel k512 + 16 * i]
    movdqa [rsp + 16 * i], xmm9
%assign i i + 1
%endrep
    mov rdx, r9
    xor rdx, r10                ; b ^ c for round 0
%assign t 0
%rep 10
    ROUND8 t
%assign t t + 8
%endrep
    add r8, [rdi]
    add r9, [rdi + 8]
    add r10, [rdi + 16]
    add r11, [rdi + 24]
    add r12, [rdi + 32]
    add r13, [rdi + 40]
    add r14, [rdi + 48]
    add r15, [rdi + 56]
    mov [rdi], r8
    mov [rdi + 8], r9
    mov [rdi + 16], r10
    mov [rdi + 24], r11
    mov [rdi + 32], r12
    mov [rdi + 40], r13
    mov [rdi + 48], r14
    mov [rdi + 56], r15
    add rsi, 128
    dec qword [rsp + NB]
    jnz .block                  ; ct: public block count
    ; wipe the frame's K + W and the schedule registers
    pxor xmm0, xmm0
%assign i 0
%rep WK_SIZE / 16
    movdqa [rsp + 16 * i], xmm0
%assign i i + 1
%endrep
    pxor xmm1, xmm1
    pxor xmm2, xmm2
    pxor xmm3, xmm3
    pxor xmm4, xmm4
    pxor xmm5, xmm5
    pxor xmm6, xmm6
    pxor xmm7, xmm7
    pxor xmm8, xmm8
    pxor xmm9, xmm9
    pxor xmm10, xmm10
    add rsp, FRAME
    POP_CALLEE
.done:
    ret
ENDFUNC %1
%endmacro

SHA512_FUNC vg_sha512_blocks_base, 0
SHA512_FUNC vg_sha512_blocks_bmi2, 1

    RODATA
; FIPS 180-4 4.2.3
k512:
    dq 0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc
    dq 0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118
    dq 0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2
    dq 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694
    dq 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65
    dq 0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5
    dq 0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4
    dq 0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70
    dq 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df
    dq 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b
    dq 0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30
    dq 0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8
    dq 0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8
    dq 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3
    dq 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec
    dq 0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b
    dq 0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178
    dq 0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b
    dq 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c
    dq 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817
