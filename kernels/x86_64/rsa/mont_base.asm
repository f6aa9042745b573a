; mont_base.asm: Montgomery multiplication at the base tier (x86-64 mul/adc,
; one carry chain): by columns, fully unrolled, for 16, 24 and 32 limbs
; (the CRT halves: mont_fips_macros.asm), by rows for 48 and 64 limbs (the
; public moduli, where the unrolled columns would be too much code).
; Secret: every operand, the modulus and m0inv. No branch and no address
; depends on them: the only branch is the row counter (public), addresses
; are the argument pointers plus constants.
;
; void vg_mont_mul_base_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                         const uint64_t *m, uint64_t m0inv, size_t n)
; Same contract as vg_mont_mul_c (mont.h) with n == N (ignored).

%include "x86_64/common/config.asm"

%include "x86_64/rsa/mont_macros.asm"
%include "x86_64/rsa/mont_fips_macros.asm"

; By columns: column k adds the a_i b_(k-i), then FIPS_UCOLUMN the u m
; products; T(0..N-1) holds the u_k, then the result words.
%macro MONT_MUL_FIPS 1
%assign N %1
FUNC vg_mont_mul_base_%1
	push r12
	sub rsp, 8 * N
	mov r9, rdx                     ; b (mul writes rdx)
	FIPS_START
%assign k 0
%rep 2 * N - 1
%if k < N
%assign i 0
%else
%assign i k - N + 1
%endif
%assign i0 i
%if k < N
%assign i1 k
%else
%assign i1 N - 1
%endif
%assign i i0
%rep i1 - i0 + 1
	FIPS_MAC [rsi + 8 * i], [r9 + 8 * (k - i)]
%assign i i + 1
%endrep
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
	pop r12
	ret
ENDFUNC vg_mont_mul_base_%1
%endmacro

%macro MONT_MUL_BASE 1
%assign N %1
FUNC vg_mont_mul_base_%1
	push rbx
	push rbp
	sub rsp, 8 * (N + 2)
	mov r9, rdx                     ; b (mul writes rdx)
	xor eax, eax
%assign j 0
%rep N + 2
	mov T(j), rax
%assign j j + 1
%endrep
	mov ebp, N                      ; row counter (public)
%%row:
	; Pass 1: t += a_i b, carry limb in rbx.
	mov r11, [rsi]
	lea rsi, [rsi + 8]
	xor ebx, ebx
%assign j 0
%rep N
	mov rax, [r9 + 8 * j]
	mul r11
	add rax, T(j)
	adc rdx, 0
	add rax, rbx
	adc rdx, 0
	mov T(j), rax
	mov rbx, rdx
%assign j j + 1
%endrep
	mov rax, T(N)
	xor edx, edx
	add rax, rbx
	adc rdx, 0
	mov T(N), rax
	mov T(N + 1), rdx

	; Pass 2: u = t_0 m0inv; t = (t + u m) / 2^64.
	mov r11, T(0)
	imul r11, r8
	mov rax, [rcx]
	mul r11
	add rax, T(0)                   ; zero by the choice of u; the carry matters
	adc rdx, 0
	mov rbx, rdx
%assign j 1
%rep N - 1
	mov rax, [rcx + 8 * j]
	mul r11
	add rax, T(j)
	adc rdx, 0
	add rax, rbx
	adc rdx, 0
	mov T(j - 1), rax
	mov rbx, rdx
%assign j j + 1
%endrep
	mov rax, T(N)
	xor edx, edx
	add rax, rbx
	adc rdx, 0
	mov T(N - 1), rax
	add rdx, T(N + 1)
	mov T(N), rdx

	dec ebp
	jnz %%row

	; r = t - m unless that borrows past t_N (mask = t_N - borrow).
	MONT_FINAL 0, rax, T(N)
	MONT_WIPE N + 2
	add rsp, 8 * (N + 2)
	pop rbp
	pop rbx
	ret
ENDFUNC vg_mont_mul_base_%1
%endmacro

MONT_MUL_FIPS 16
MONT_MUL_FIPS 24
MONT_MUL_FIPS 32
MONT_MUL_BASE 48
MONT_MUL_BASE 64
