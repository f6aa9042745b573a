; mont_sqr_adx.asm: Montgomery squaring at the adx tier for 16, 24 and 32
; limbs: the square with each cross product computed once (mulx, adcx/adox),
; doubled, plus the diagonal, then a separate Montgomery reduction. About
; three quarters of a multiplication's mulx work. Secret: the operand, the
; modulus and m0inv. No branch and no address depends on them: the only
; branch is the reduction's row counter, addresses are argument pointers,
; the stack, and a stack pointer stepped by a constant.
;
; void vg_mont_sqr_adx_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                        const uint64_t *m, uint64_t m0inv, size_t n)
; r = a^2 R^-1 mod m for a < m (b is ignored: the vg_mont_mul_fn type, called
; with b == a), n == N ignored; r fully reduced, may alias a.

%include "x86_64/common/config.asm"

%include "x86_64/rsa/mont_macros.asm"

%macro MONT_SQR_ADX 1
%assign N %1
FUNC vg_mont_sqr_adx_%1
	push rbx
	push rbp
	push r12
	push r13
	sub rsp, 8 * (2 * N)
	xor eax, eax
%assign j 0
%rep 2 * N
	mov T(j), rax
%assign j j + 1
%endrep

	; Cross products a_i a_j, j > i, row by row into T(i + j). Low halves
	; on the CF chain, high halves (alternating rbx/r12) on the OF chain
	; one limb up; the row's last high half and both carries end at
	; T(i + N), which no earlier row has reached.
%assign i 0
%rep N - 1
	mov rdx, [rsi + 8 * i]
	xor eax, eax
	mulx rbx, r10, [rsi + 8 * (i + 1)]
	adcx r10, T(2 * i + 1)
	mov T(2 * i + 1), r10
%xdefine HIP rbx
%xdefine HIN r12
%assign j i + 2
%rep N - 2 - i
	mulx HIN, r10, [rsi + 8 * j]
	adcx r10, T(i + j)
	adox r10, HIP
	mov T(i + j), r10
%xdefine HIT HIP
%xdefine HIP HIN
%xdefine HIN HIT
%assign j j + 1
%endrep
	mov r10, rax
	adcx r10, rax
	adox r10, HIP
	mov T(i + N), r10
%assign i i + 1
%endrep

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

	; Reduction: N rows; row i adds u m at T(i) with u = T(i) m0inv,
	; zeroing T(i). r11 points at T(i); r13 carries what overflows T(i+N)
	; into the next row's top.
	xor r13d, r13d
	mov r11, rsp
	mov ebp, N
%%row:
	mov rdx, [r11]
	imul rdx, r8
	xor eax, eax
	mulx rbx, r10, [rcx]
	adcx r10, [r11]                 ; zero by the choice of u; CF matters
%assign j 1
%rep N - 1
%if j % 2
	mulx r12, r10, [rcx + 8 * j]
	adcx r10, [r11 + 8 * j]
	adox r10, rbx
%else
	mulx rbx, r10, [rcx + 8 * j]
	adcx r10, [r11 + 8 * j]
	adox r10, r12
%endif
	mov [r11 + 8 * j], r10
%assign j j + 1
%endrep
	mov r10, [r11 + 8 * N]          ; N even: the last high half is in r12
	adox r10, r12
	adcx r10, r13
	mov [r11 + 8 * N], r10
	mov r13, rax
	adcx r13, rax
	adox r13, rax
	lea r11, [r11 + 8]
	dec ebp
	jnz %%row

	; t = T(N..2N-1) + r13 2^(64 N) < 2m: r = t - m unless that borrows
	; past r13 (mask = r13 - borrow is 0 or -1).
	MONT_FINAL N, r13
	MONT_WIPE 2 * N
	add rsp, 8 * (2 * N)
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret
ENDFUNC vg_mont_sqr_adx_%1
%endmacro

MONT_SQR_ADX 16
MONT_SQR_ADX 24
MONT_SQR_ADX 32
