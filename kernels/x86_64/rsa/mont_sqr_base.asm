; mont_sqr_base.asm: Montgomery squaring at the base tier (x86-64 mul/adc)
; for 16, 24 and 32 limbs (the CRT halves) and 48 and 64 (the public
; moduli of RSA-3072/4096: 16 of the 17 products of e = 65537, and of every
; private operation's fault check), by columns like the multiplication
; (mont_fips_macros.asm), with each cross product computed once and
; doubled: N (N - 1) / 2 + N products for the square instead of the
; multiply's N^2, the reduction's N^2 unchanged. Fully unrolled at every
; size: at 48 and 64 limbs that is 84 and 150 KB of code, beyond the
; instruction cache, yet 0.82 and 0.77 of the time of the looped columns
; it replaced, whose loop exits (two a column, of varying length)
; mispredicted about once each. Secret: the operand, the
; modulus and m0inv. No branch and no address depends on them: the code is
; straight-line, addresses are argument pointers plus constants and the
; stack.
;
; void vg_mont_sqr_base_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                         const uint64_t *m, uint64_t m0inv, size_t n)
; r = a^2 R^-1 mod m for a < m (b is ignored: the vg_mont_mul_fn type, called
; with b == a), n == N ignored; r fully reduced, may alias a.

%include "x86_64/common/config.asm"

%include "x86_64/rsa/mont_fips_macros.asm"

; By columns (mont_fips_macros.asm): column k adds the cross products
; a_i a_(k-i), i < k - i, gathered once in a second accumulator D (rbx,
; r13, r14: the column's cross sum is below 2^192 even doubled) and
; doubled into the main one, then the square a_(k/2)^2 for even k, then
; FIPS_UCOLUMN the u m products.
%macro MONT_SQR_BASE 1
%assign N %1
FUNC vg_mont_sqr_base_%1
	push rbx
	push r12
	push r13
	push r14
	sub rsp, 8 * N
	FIPS_START
%assign k 0
%rep 2 * N - 1
%if k < N
%assign i0 0
%else
%assign i0 k - N + 1
%endif
%assign i1 (k - 1) / 2                  ; the last i with i < k - i
%if k == 0
%assign i1 -1
%endif
%if i1 >= i0
	xor ebx, ebx
	xor r13d, r13d
	xor r14d, r14d
%assign i i0
%rep i1 - i0 + 1
	mov rax, [rsi + 8 * i]
	mul qword [rsi + 8 * (k - i)]
	add rbx, rax
	adc r13, rdx
	adc r14, 0
%assign i i + 1
%endrep
	add rbx, rbx                    ; doubled
	adc r13, r13
	adc r14, r14
	add C0, rbx
	adc C1, r13
	adc C2, r14
%endif
%if k % 2 == 0
	mov rax, [rsi + 8 * (k / 2)]
	mul rax
	add C0, rax
	adc C1, rdx
	adc C2, 0
%endif
	FIPS_UCOLUMN k
%assign k k + 1
%endrep
	; column 2N - 1 has no product: its word is the last result word and
	; the carry above it (0 or 1) the top of t < 2m
	mov T(N - 1), C0
	mov rax, C1
	MONT_FINAL 0, rax
	MONT_WIPE N
	add rsp, 8 * N
	pop r14
	pop r13
	pop r12
	pop rbx
	ret
ENDFUNC vg_mont_sqr_base_%1
%endmacro

MONT_SQR_BASE 16
MONT_SQR_BASE 24
MONT_SQR_BASE 32
MONT_SQR_BASE 48
MONT_SQR_BASE 64
