; sha256_shani.asm: the SHA-256 compression function (FIPS 180-4 6.2.2)
; with the SHA extensions (sha256rnds2, sha256msg1, sha256msg2; SSSE3
; pshufb/palignr, SSE4.1 pblendw, which every CPU with them has). Secret:
; the message and the state. No branch or address depends on them: the
; only branch is the public block counter.
;
; void vg_sha256_blocks_shani(uint32_t h[8], const uint8_t *p, size_t nblocks);
;
; The state is kept as two registers in the order the round instruction
; wants: ABEF (A in the top dword, F in the bottom) and CDGH. sha256rnds2
; runs two rounds on xmm0's low two dwords (W + K) and returns the new ABEF
; in its destination; the old ABEF becomes the new CDGH, so the two
; registers swap roles every two rounds.
%include "x86_64/common/config.asm"

%define ABEF    xmm1
%define CDGH    xmm2
%define SAVE0   xmm8            ; the state at the start of the block
%define SAVE1   xmm9
%define BSWAP   xmm10
%define TMP     xmm3

; Four rounds from message group %1 (a register holding W[4g..4g+3]) and
; K at offset %2.
%macro ROUNDS4 2
    movdqa xmm0, %1
    paddd xmm0, [rel k256 + %2]
    sha256rnds2 CDGH, ABEF
    pshufd xmm0, xmm0, 0x0e
    sha256rnds2 ABEF, CDGH
%endmacro

; %1 = W[4g+16..4g+19] from %1 = W[4g..], %2 = W[4g+4..], %3 = W[4g+8..],
; %4 = W[4g+12..]: W_t = s1(W_t-2) + W_t-7 + s0(W_t-15) + W_t-16.
%macro SCHEDULE 4
    sha256msg1 %1, %2           ; W_t-16 + s0(W_t-15)
    movdqa TMP, %4
    palignr TMP, %3, 4          ; W_t-7
    paddd %1, TMP
    sha256msg2 %1, %4           ; + s1(W_t-2)
%endmacro

FUNC vg_sha256_blocks_shani
    test rdx, rdx
    jz .done                    ; ct: public block count
    movdqu ABEF, [rdi]          ; a b c d (a in the bottom dword)
    movdqu CDGH, [rdi + 16]     ; e f g h
    pshufd ABEF, ABEF, 0xb1     ; b a d c
    pshufd CDGH, CDGH, 0x1b     ; h g f e
    movdqa TMP, ABEF
    palignr ABEF, CDGH, 8       ; f e b a: ABEF
    pblendw CDGH, TMP, 0xf0     ; h g d c: CDGH
    movdqa BSWAP, [rel bswap32]
.block:
    movdqa SAVE0, ABEF
    movdqa SAVE1, CDGH
    movdqu xmm4, [rsi]
    pshufb xmm4, BSWAP
    movdqu xmm5, [rsi + 16]
    pshufb xmm5, BSWAP
    movdqu xmm6, [rsi + 32]
    pshufb xmm6, BSWAP
    movdqu xmm7, [rsi + 48]
    pshufb xmm7, BSWAP
%assign g 0
%rep 16
%assign m g % 4
%if m == 0
    ROUNDS4 xmm4, 16 * g
%if g < 12
    SCHEDULE xmm4, xmm5, xmm6, xmm7
%endif
%elif m == 1
    ROUNDS4 xmm5, 16 * g
%if g < 12
    SCHEDULE xmm5, xmm6, xmm7, xmm4
%endif
%elif m == 2
    ROUNDS4 xmm6, 16 * g
%if g < 12
    SCHEDULE xmm6, xmm7, xmm4, xmm5
%endif
%else
    ROUNDS4 xmm7, 16 * g
%if g < 12
    SCHEDULE xmm7, xmm4, xmm5, xmm6
%endif
%endif
%assign g g + 1
%endrep
    paddd ABEF, SAVE0
    paddd CDGH, SAVE1
    add rsi, 64
    dec rdx
    jnz .block                  ; ct: public block count
    pshufd ABEF, ABEF, 0x1b     ; a b e f
    pshufd CDGH, CDGH, 0xb1     ; g h c d
    movdqa TMP, ABEF
    pblendw ABEF, CDGH, 0xf0    ; a b c d
    palignr CDGH, TMP, 8        ; e f g h
    movdqu [rdi], ABEF
    movdqu [rdi + 16], CDGH
    ; the message schedule and the state were in vector registers: clear
    pxor xmm0, xmm0
    pxor xmm3, xmm3
    pxor xmm4, xmm4
    pxor xmm5, xmm5
    pxor xmm6, xmm6
    pxor xmm7, xmm7
    pxor xmm8, xmm8
    pxor xmm9, xmm9
    pxor ABEF, ABEF
    pxor CDGH, CDGH
.done:
    ret
ENDFUNC vg_sha256_blocks_shani

    RODATA
bswap32: db 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
; FIPS 180-4 4.2.2
k256:
    dd 0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
    dd 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
    dd 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
    dd 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
    dd 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
    dd 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
    dd 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
    dd 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
