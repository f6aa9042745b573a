; mont_sqr_adx.asm: Montgomery squaring at the adx tier for 16, 24 and 32
; limbs (the CRT halves) and 48 and 64 (the public moduli of RSA-3072/4096:
; the squarings of the public exponentiation and of the fault check): the
; square with each cross product computed once (mulx, adcx/adox), doubled,
; plus the diagonal, then a separate Montgomery reduction. The cross
; products' triangles (at 48 and 64 limbs each half's) and the reduction
; go eight rows at a time with a window of T in registers (CROSS_BLK,
; REDUCE_BLK). About three quarters of a multiplication's mulx
; work. Secret: the operand, the modulus and m0inv. No branch and no
; address depends on them: the only branches are counters (public: the
; reduction's blocks, and at 48 and 64 limbs the triangles' and
; the rectangle's), addresses are argument pointers, the stack, and
; pointers stepped by constants.
;
; void vg_mont_sqr_adx_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                        const uint64_t *m, uint64_t m0inv, size_t n)
; r = a^2 R^-1 mod m for a < m (b is ignored: the vg_mont_mul_fn type, called
; with b == a), n == N ignored; r fully reduced, may alias a.

%include "x86_64/common/config.asm"

%include "x86_64/rsa/mont_macros.asm"
%include "x86_64/rsa/mont_blk_macros.asm"

; CROSS_BLK h, t, a: the cross products a_i a_j, 0 <= i < j < h, of the
; h limbs at [a] into the qwords [t + 8] .. [t + 8 (2h - 2)], at
; [t + 8 (i + j)], eight rows at a time: the whole triangle at 16 to 32
; limbs (t = rsp, a = rsi), each half's at 48 and 64. Row by row, each
; product would read and write T (three memory operations per mulx);
; here block i takes a_i..a_{i+7} as the rows of the columns
; j = i+1..h-1 (column j uses the rows k < j - i, at most eight) over a
; nine-word window of T in registers, so a product costs one memory
; operation, its row's limb. Column j's finished word, at i + j, is added
; into T on a third carry chain kept in r15 (0 or -1 between columns); the
; first block stores instead. After the last column the window's r words,
; from i + h up, take the chain's carry and are stored: no earlier block
; reached them (block i - 8 ends at i + h - 1), and nothing carries out of
; them, as the window then holds this block's products from 2^(64(i+h))
; up, at most 2^(64r) - 2 (products of below 2^(64r) and below
; 2^(64(h-i)), over 2^(64(i+h))). [t] and [t + 8 (2h - 1)] are left
; alone (zeroed before). Uses every register but rsi and rsp. In vgbench
; (--tier adx --peer awslc, five alternated runs each on Zen 5) RSA
; private went from 0.915/0.918/0.970 of aws-lc's time (2048/3072/4096)
; to 0.895/0.901/0.928 with it at 16 to 32 limbs.
%macro CROSS_BLK 3
%assign CB_N %1
%assign i 0
%rep CB_N / 8
	W_NAMES rcx, rdi, rbp, r8, r9, r11, r12, r13, r14
	xor r15d, r15d                  ; the chain's carry (i > 0)
%assign j i + 1
%rep CB_N - 1 - i
%assign r j - i
%if r > 8
%assign r 8
%endif
	mov rdx, [%3 + 8 * j]
%if j - i <= 8
	W_AT r - 1
	mov WA, 0                       ; no earlier column reached it (mov:
%endif                                  ; the flags are cleared after)
	xor eax, eax
	W_MULADD r, %3 + 8 * i
%if i == 0
	mov [%2 + 8 * (i + j)], W0
%else
	add r15, r15
	adc W0, [%2 + 8 * (i + j)]
	mov [%2 + 8 * (i + j)], W0
	sbb r15, r15
%endif
	W_SLIDE
%assign j j + 1
%endrep
%if i > 0
	add r15, r15                    ; the chain's carry into T(i + h)
%endif
%assign k 0
%rep r
	W_AT k
%if i > 0
	adc WA, 0
%endif
	mov [%2 + 8 * (i + CB_N + k)], WA
%assign k k + 1
%endrep
%assign i i + 8
%endrep
%endmacro


; The frame: T (2N words); the slots: (REDUCE_BLK) tc, m0inv, r,
; (CROSS_BLK) m, a; REDUCE_BLK's P (the block's product words 8..N-1);
; at 48 and 64 the copies of a's halves (the low half at SQ_AC,
; the high half 2H words up). Why there: on Zen 5 CROSS_BLK reading its
; rows from a copy 1, 2, 3 or 4 KiB (plus a few words) above the T words
; it had just written took 2.7 times as long as from other offsets, and a
; load 1 or 3 KiB above the store before it costs a two-instruction loop
; 1.4-1.65 times its time (2 and 4 KiB nothing): some partial-address
; match between loads and older stores, whose rule we do not know. So
; the copies sit where this pass's T words are not, modulo 1 KiB: 64
; words from the low triangle's, 0 from the high one's (measured fast).
%define SQ_TC (2 * N)
%define SQ_M0 (SQ_TC + 1)
%define SQ_R (SQ_TC + 2)
%define SQ_M (SQ_TC + 3)
%define SQ_A (SQ_TC + 4)
%define SQ_PB (SQ_TC + 5)
%define SQ_P(j) [rsp + 8 * (SQ_PB + (j) - 8)]
%define SQ_AC (N == 64 ? 192 : 176)
%define SQ_SLOT(w) [rsp + 8 * (w)]
%define RB_TC SQ_SLOT(SQ_TC)
%define RB_M0 SQ_SLOT(SQ_M0)
%define RB_R SQ_SLOT(SQ_R)
%define RB_P(j) SQ_P(j)

%macro MONT_SQR_ADX 1
%assign N %1
FUNC vg_mont_sqr_adx_%1
	PUSH_CALLEE
%if N <= 32
%define SQ_FRAME (8 * (SQ_PB + N - 8))
%else
%define SQ_FRAME (8 * (SQ_AC + 3 * N / 2))
%endif
	sub rsp, SQ_FRAME
	; the limbs of T no triangle writes (CROSS_BLK)
	xor eax, eax
	mov T(0), rax
	mov T(2 * N - 1), rax
%if N > 32
	mov T(N - 1), rax
	mov T(N), rax
%endif

	mov SQ_SLOT(SQ_R), rdi
	mov SQ_SLOT(SQ_M), rcx
	mov SQ_SLOT(SQ_M0), r8
%if N <= 32
	CROSS_BLK N, rsp, rsi
	mov rcx, SQ_SLOT(SQ_M)          ; m for REDUCE_BLK (r, m0inv: slots)
%else
	; 48 and 64 limbs: a = lo + hi 2^(64 H), H = N/2. The cross products
	; are those of lo (into T(0..2H-1)) and of hi (into T(2H..4H-1)), by
	; one unrolled CROSS_BLK of H limbs run twice by a loop, plus the
	; rectangle lo hi at T(H), by rows of H. (Unrolled over N limbs,
	; the functions were 45 and 85 KB and slower.) The loop's one base
	; register, rsi, steps over T and the copies of a's halves at once.
%assign H N / 2
	mov SQ_SLOT(SQ_A), rsi
%assign k 0
%rep H
	mov rax, [rsi + 8 * k]
	mov [rsp + 8 * (SQ_AC + k)], rax
	mov rax, [rsi + 8 * (H + k)]
	mov [rsp + 8 * (SQ_AC + 2 * H + k)], rax
%assign k k + 1
%endrep
	mov rsi, rsp
	align 64
%%tri:
	CROSS_BLK H, rsi, rsi + 8 * SQ_AC
	lea rsi, [rsi + 16 * H]
	lea r10, [rsp + 32 * H]
	cmp rsi, r10                    ; public: two passes
	jne %%tri
	mov rsi, SQ_SLOT(SQ_A)
	mov rcx, SQ_SLOT(SQ_M)

	; Row i of the rectangle adds a_i hi at T(H + i); its top word
	; T(2H + i) already holds hi's cross products, so what carries out of
	; it goes to the next row's top in r13 (0, 1 or 2), and out of the
	; last row's into T(3H..4H-1).
	xor r13d, r13d
	mov r9, rsi                     ; a_i
	lea r11, [rsp + 8 * H]          ; T(H + i)
	mov ebp, H                      ; row counter (public)
	align 64
%%rect:
	mov rdx, [r9]
	lea r9, [r9 + 8]
	xor eax, eax
	mulx rbx, r10, [rsi + 8 * H]
	adcx r10, [r11]
	mov [r11], r10
%assign j 1
%rep H - 1
%if j % 2
	mulx r12, r10, [rsi + 8 * (H + j)]
	adcx r10, [r11 + 8 * j]
	adox r10, rbx
%else
	mulx rbx, r10, [rsi + 8 * (H + j)]
	adcx r10, [r11 + 8 * j]
	adox r10, r12
%endif
	mov [r11 + 8 * j], r10
%assign j j + 1
%endrep
	mov r10, [r11 + 8 * H]          ; H even: the last high half is in r12
	adcx r10, r13
	adox r10, r12
	mov [r11 + 8 * H], r10
	mov r13, rax
	adcx r13, rax
	adox r13, rax
	lea r11, [r11 + 8]
	dec ebp
	jnz %%rect
	add T(3 * H), r13               ; the cross sum is below 2^(128 N)
%assign j 3 * H + 1
%rep H - 1
	adc qword T(j), 0
%assign j j + 1
%endrep
%endif

	; T = 2 T + the squares a_k^2 at T(2k): the CF chain doubles (adcx x,
	; x shifts in the bit from below), the OF chain adds the diagonal.
	xor eax, eax
%assign k 0
%rep N
	mov rdx, [rsi + 8 * k]
	mulx r11, r10, rdx
	mov r9, T(2 * k)
	adcx r9, r9
	adox r9, r10
	mov T(2 * k), r9
	mov r9, T(2 * k + 1)
	adcx r9, r9
	adox r9, r11
	mov T(2 * k + 1), r9
%assign k k + 1
%endrep

	REDUCE_BLK

	; t = T(N..2N-1) + r13 2^(64 N) < 2m: r = t - m unless that borrows
	; past r13 (mask = r13 - borrow is 0 or -1).
	MONT_FINAL N, r13
	MONT_WIPE SQ_FRAME / 8
	add rsp, SQ_FRAME
	POP_CALLEE
	ret
ENDFUNC vg_mont_sqr_adx_%1
%endmacro

MONT_SQR_ADX 16
MONT_SQR_ADX 24
MONT_SQR_ADX 32
MONT_SQR_ADX 48
MONT_SQR_ADX 64
