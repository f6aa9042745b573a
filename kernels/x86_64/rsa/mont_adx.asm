; mont_adx.asm: Montgomery multiplication at the adx tier (mulx with the two
; carry chains of adcx/adox): row by row, fully unrolled, for 16, 24, 32
; and 48 limbs (the CRT halves of RSA-2048/3072/4096, and RSA-3072's
; public modulus); at 64 limbs (RSA-4096's public modulus) the product
; and then the reduction, eight rows at a time (MUL_BLK, REDUCE_BLK).
; Secret: every operand, the modulus and m0inv. No branch and no address
; depends on them: the only branches are the row or block counters
; (public), addresses are the argument pointers and the stack plus
; constants, or a pointer stepped by a constant.
;
; void vg_mont_mul_adx_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                        const uint64_t *m, uint64_t m0inv, size_t n)
; Same contract as vg_mont_mul_c (mont.h) with n == N (the argument is
; ignored): r = a b R^-1 mod m, b < m, a < R, r fully reduced, r may alias
; a or b (r is written only after the last read of a and b).

%include "x86_64/common/config.asm"

%include "x86_64/rsa/mont_macros.asm"
%include "x86_64/rsa/mont_blk_macros.asm"

; Row form: t lives on the stack, N + 2 limbs (t < 2m plus the carry of a
; row).

%macro MONT_MUL_ADX 1
%assign N %1
FUNC vg_mont_mul_adx_%1
	push rbx
	push rbp
	push r12
	sub rsp, 8 * (N + 2)
	mov r9, rdx                     ; b (rdx is mulx's implicit operand)
	xor eax, eax                    ; rax = 0 for the whole function
%assign j 0
%rep N + 2
	mov T(j), rax
%assign j j + 1
%endrep
	mov ebp, N                      ; row counter (public)
	align 64
%%row:
	; Pass 1: t += a_i b. Low halves ride the CF chain (adcx), the high
	; half of limb j-1 the OF chain (adox) into limb j. The high halves
	; alternate between rbx and r12 so no move is needed.
	mov rdx, [rsi]
	lea rsi, [rsi + 8]              ; lea leaves the flags alone
	xor eax, eax                    ; CF = OF = 0
	mulx rbx, r10, [r9]
	adcx r10, T(0)
	mov T(0), r10
%assign j 1
%rep N - 1
%if j % 2
	mulx r12, r10, [r9 + 8 * j]
	adcx r10, T(j)
	adox r10, rbx
%else
	mulx rbx, r10, [r9 + 8 * j]
	adcx r10, T(j)
	adox r10, r12
%endif
	mov T(j), r10
%assign j j + 1
%endrep
	; N is even: the last high half is in r12. t_N gets both chains'
	; carries and that high half; t_{N+1} what carries out of that.
	mov r10, T(N)
	adcx r10, rax
	adox r10, r12
	mov T(N), r10
	mov r10, rax
	adcx r10, rax
	adox r10, rax
	mov T(N + 1), r10

	; Pass 2: u = t_0 m0inv mod 2^64 makes t + u m divisible by 2^64;
	; t = (t + u m) / 2^64, stored one limb down as it is produced.
	mov rdx, T(0)
	imul rdx, r8
	xor eax, eax
	mulx rbx, r10, [rcx]
	adcx r10, T(0)                  ; zero by the choice of u; CF matters
%assign j 1
%rep N - 1
%if j % 2
	mulx r12, r10, [rcx + 8 * j]
	adcx r10, T(j)
	adox r10, rbx
%else
	mulx rbx, r10, [rcx + 8 * j]
	adcx r10, T(j)
	adox r10, r12
%endif
	mov T(j - 1), r10
%assign j j + 1
%endrep
	mov r10, T(N)
	adcx r10, rax
	adox r10, r12
	mov T(N - 1), r10
	mov r10, T(N + 1)
	adcx r10, rax
	adox r10, rax
	mov T(N), r10

	dec ebp
	jnz %%row

	; t < 2m with t_N in {0, 1}: r = t - m, then keep t instead when the
	; subtraction borrows past t_N (mask = t_N - borrow is 0 or -1).
	MONT_FINAL 0, rax, T(N)
	MONT_WIPE N + 2
	add rsp, 8 * (N + 2)
	pop r12
	pop rbp
	pop rbx
	ret
ENDFUNC vg_mont_mul_adx_%1
%endmacro

MONT_MUL_ADX 16
MONT_MUL_ADX 24
MONT_MUL_ADX 32
MONT_MUL_ADX 48

; At 64 limbs (RSA-4096's public operation: the conversion into
; Montgomery form and the last multiply) the product and the reduction are
; separate, each eight rows at a time over a window of T in registers
; (W_MULADD), as the squaring's reduction is (REDUCE_BLK): the row form
; above reads and writes T at every product. MUL_BLK: T = a b, block i
; taking b_i..b_{i+7} as the rows: for each column j, W += a_j
; (b_i..b_{i+7}), then W0 is the block's product word at i + j and goes to
; P; then P is added into T(i..i+N-1) and the window's last eight words
; are stored above it, with the carry (no earlier block reached
; T(i+N..i+N+7), and no carry leaves T(i+N+7): T then holds a times b
; mod 2^(64(i+8)), below 2^(64(i+N+8))). The nine-word window suffices for
; the reason REDUCE_BLK gives. One pointer, r11, steps over T and b's copy
; in the frame (b_k at MB_BC + k), which leaves a register for a; r, m
; and m0inv wait in the frame. Against the row form, in one process with
; the squarings of the public operation (old and new objects, paired
; runs on Zen 5): RSA-4096's public operation took 0.98 of its time. At
; 16 to 48 limbs the row form stays: there the block form took 0.97-1.0
; of its time in an exponentiation's loop (five squarings and a
; multiply, paired runs), and the multiply would grow from 3.8 to 15.5 KB
; at 32 limbs, beside a 17 KB squaring: past a 32 KB instruction cache.
%define MB_TC (2 * N)
%define MB_M0 (MB_TC + 1)
%define MB_R (MB_TC + 2)
%define MB_M (MB_TC + 3)
%define MB_PB (MB_TC + 4)
%define MB_BC (MB_PB + N)
%define MB_FRAME (MB_BC + N)
%define MB_P(j) [rsp + 8 * (MB_PB + (j))]
%define RB_TC [rsp + 8 * MB_TC]
%define RB_M0 [rsp + 8 * MB_M0]
%define RB_R [rsp + 8 * MB_R]
%define RB_P(j) MB_P((j) - 8)

%macro MUL_BLK 0
	mov r11, rsp
	align 64
%%block:
	W_NAMES rcx, rdi, rbp, r8, r9, r12, r13, r14, r15
%assign k 0
%rep 8
	W_AT k
	xor WA, WA
%assign k k + 1
%endrep
%assign j 0
%rep N
	mov rdx, [rsi + 8 * j]
	xor eax, eax
	W_MULADD 8, r11 + 8 * MB_BC
	mov MB_P(j), W0
	W_SLIDE
%assign j j + 1
%endrep
	mov r10, MB_P(0)
	add [r11], r10
%assign j 1
%rep N - 1
	mov r10, MB_P(j)
	adc [r11 + 8 * j], r10
%assign j j + 1
%endrep
%assign k 0
%rep 8
	W_AT k
	adc WA, 0
	mov [r11 + 8 * (N + k)], WA
%assign k k + 1
%endrep
	lea r11, [r11 + 64]
	lea r10, [rsp + 8 * N]
	cmp r11, r10                    ; public: N / 8 blocks
	jne %%block
%endmacro

FUNC vg_mont_mul_adx_64
%assign N 64
	PUSH_CALLEE
	sub rsp, 8 * MB_FRAME
	mov RB_R, rdi
	mov RB_M0, r8
	mov [rsp + 8 * MB_M], rcx
	; b's copy; T = 0 (the blocks add into it)
%assign k 0
%rep N
	mov rax, [rdx + 8 * k]
	mov [rsp + 8 * (MB_BC + k)], rax
%assign k k + 1
%endrep
	pxor xmm0, xmm0
%assign k 0
%rep N / 2
	movdqu T(k), xmm0
%assign k k + 2
%endrep
	MUL_BLK
	mov rcx, [rsp + 8 * MB_M]
	REDUCE_BLK
	; t = T(N..2N-1) + r13 2^(64 N) < 2m
	MONT_FINAL N, r13
	MONT_WIPE MB_FRAME
	add rsp, 8 * MB_FRAME
	POP_CALLEE
	ret
ENDFUNC vg_mont_mul_adx_64

