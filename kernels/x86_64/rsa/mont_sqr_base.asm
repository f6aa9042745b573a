; mont_sqr_base.asm: Montgomery squaring at the base tier (x86-64 mul/adc)
; for 16, 24 and 32 limbs: the square with each cross product computed
; once, doubled, plus the diagonal, then a separate Montgomery reduction;
; the shape of mont_sqr_adx.asm with one carry chain. N (N - 1) / 2 + N
; products for the square instead of the multiply's N^2: the squaring
; takes about three quarters of the multiplication's mul work. Secret: the
; operand, the modulus and m0inv. No branch and no address depends on them:
; the only branch is the reduction's row counter, addresses are argument
; pointers, the stack, and a stack pointer stepped by a constant.
;
; void vg_mont_sqr_base_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                         const uint64_t *m, uint64_t m0inv, size_t n)
; r = a^2 R^-1 mod m for a < m (b is ignored: the vg_mont_mul_fn type, called
; with b == a), n == N ignored; r fully reduced, may alias a.

%include "x86_64/common/config.asm"

%include "x86_64/rsa/mont_macros.asm"

%macro MONT_SQR_BASE 1
%assign N %1
FUNC vg_mont_sqr_base_%1
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

	; Cross products a_i a_j, j > i, row by row into T(i + j), the carry
	; limb in rbx; the row's last carry is T(i + N), which no earlier row
	; has reached.
%assign i 0
%rep N - 1
	mov r11, [rsi + 8 * i]
	xor ebx, ebx
%assign j i + 1
%rep N - 1 - i
	mov rax, [rsi + 8 * j]
	mul r11
	add rax, T(i + j)
	adc rdx, 0
	add rax, rbx
	adc rdx, 0
	mov T(i + j), rax
	mov rbx, rdx
%assign j j + 1
%endrep
	mov T(i + N), rbx
%assign i i + 1
%endrep

	; T = 2 T (one add chain; the cross sum is below 2^(64 (2N - 1)), so
	; the top bit lands in T(2N - 1), still zero), then the squares a_k^2
	; at T(2k). mul clobbers the flags: the squares' carry is parked in
	; rbp across each one (sbb: 0 or -1; neg gives CF back).
	mov rax, T(1)
	add rax, rax
	mov T(1), rax
%assign k 2
%rep 2 * N - 2
	mov rax, T(k)
	adc rax, rax
	mov T(k), rax
%assign k k + 1
%endrep
	xor ebp, ebp
%assign k 0
%rep N
	mov rax, [rsi + 8 * k]
	mul rax
	mov r9, T(2 * k)
	mov r10, T(2 * k + 1)
	neg rbp
	adc r9, rax
	adc r10, rdx
	sbb rbp, rbp
	mov T(2 * k), r9
	mov T(2 * k + 1), r10
%assign k k + 1
%endrep

	; Reduction: N rows; row i adds u m at T(i) with u = T(i) m0inv,
	; zeroing T(i). r11 points at T(i); r13 carries what overflows T(i+N)
	; into the next row's top.
	xor r13d, r13d
	mov r11, rsp
	mov ebp, N
%%row:
	mov r12, [r11]
	imul r12, r8
	mov rax, [rcx]
	mul r12
	add rax, [r11]                  ; zero by the choice of u; the carry matters
	adc rdx, 0
	mov rbx, rdx
%assign j 1
%rep N - 1
	mov rax, [rcx + 8 * j]
	mul r12
	add rax, [r11 + 8 * j]
	adc rdx, 0
	add rax, rbx
	adc rdx, 0
	mov [r11 + 8 * j], rax
	mov rbx, rdx
%assign j j + 1
%endrep
	xor r9d, r9d
	mov rax, [r11 + 8 * N]
	add rax, rbx
	adc r9, 0
	add rax, r13
	adc r9, 0
	mov [r11 + 8 * N], rax
	mov r13, r9
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
ENDFUNC vg_mont_sqr_base_%1
%endmacro

MONT_SQR_BASE 16
MONT_SQR_BASE 24
MONT_SQR_BASE 32
