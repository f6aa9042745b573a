; mont_cols_base.asm: Montgomery squaring at the base tier (x86-64
; mul/adc) for the public moduli of RSA-3072/4096 (48 and 64 limbs: the
; squarings of the public exponentiation and of the fault check of a
; private one), by columns like mont_fips_macros.asm but with loops:
; unrolled, those sizes would be about 100 KB of code. Column k gathers
; every a_i b_(k-i) (the squaring: each a_i a_(k-i), i < k - i, once into
; a second accumulator, doubled, plus the square a_(k/2)^2) and every
; u_i m_(k-i) into a three-word accumulator in registers, one add and two
; adc a product (the row form: four add/adc, two moves and a store of t a
; product). Below column N the accumulator's low word fixes u_k; from
; column N on it is result word k - N. The second operand and m are
; copied reversed to the stack, so both operands of a column's products
; advance with one index: one load and one mul with the index a product.
; Secret: every operand, the modulus (the moduli here are public, but a
; fault check of a private operation squares a secret value) and m0inv.
; No branch and no address depends on them: branches and addresses come
; from the public column and product counters.
;
; void vg_mont_sqr_base_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                         const uint64_t *m, uint64_t m0inv, size_t n)
; r = a^2 R^-1 mod m for a < m (b is ignored: called with b == a), n == N
; ignored; r fully reduced, may alias a. (The macro also builds the
; multiply, with b copied reversed instead of a.)

%include "x86_64/common/config.asm"

%include "x86_64/rsa/mont_macros.asm"

; Frame: T(0..N-1) (u_k, then the result words), the reversed operand,
; the reversed modulus.
%define REV(j) [rsp + 8 * N + 8 * (j)]
%define MREV(j) [rsp + 16 * N + 8 * (j)]
%define FRAME (24 * N + 8)

%define C0 r10
%define C1 r11
%define C2 r12

; MACS acc0, acc1, acc2, pX, pY: (acc) += sum of [pX + 8 x] [pY + 8 x] for
; x from -rbp to -1 (rbp >= 0 products, a public count; rbp is consumed).
; Four products an iteration, after count mod 4 single ones.
%macro MAC1 6
	mov rax, [%4 + 8 * rbp + %6]
	mul qword [%5 + 8 * rbp + %6]
	add %1, rax
	adc %2, rdx
	adc %3, 0
%endmacro
%macro MACS 5
	test rbp, rbp
	jz %%done                       ; ct: public count
	neg rbp
%%single:
	test ebp, 3
	jz %%quads                      ; ct: public count
	MAC1 %1, %2, %3, %4, %5, 0
	inc rbp
	jnz %%single                    ; ct: public count
	jmp %%done
%%quads:
	MAC1 %1, %2, %3, %4, %5, 0
	MAC1 %1, %2, %3, %4, %5, 8
	MAC1 %1, %2, %3, %4, %5, 16
	MAC1 %1, %2, %3, %4, %5, 24
	add rbp, 4
	jnz %%quads                     ; ct: public count
%%done:
%endmacro

; REVERSE off, src: the frame's qwords at rsp + off + 8 j = src[N - 1 - j].
; Uses rax.
%macro REVERSE 2
%assign rj 0
%rep N
	mov rax, [%2 + 8 * (N - 1 - rj)]
	mov [rsp + %1 + 8 * rj], rax
%assign rj rj + 1
%endrep
%endmacro

; MONT_FINAL (mont_macros.asm) with m read from MREV: no pointer is
; reloaded from the frame after the loop (the static constant-time check
; cannot tell that frame slot from those the loop writes by index).
%macro FINAL_REV 0
	mov r10, T(0)
	sub r10, MREV(N - 1)
	mov [rdi], r10
%assign fj 1
%rep N - 1
	mov r10, T(fj)
	sbb r10, MREV(N - 1 - fj)
	mov [rdi + 8 * fj], r10
%assign fj fj + 1
%endrep
	sbb rax, 0
%assign fj 0
%rep N
	mov r10, [rdi + 8 * fj]
	mov r11, T(fj)
	xor r11, r10
	and r11, rax
	xor r10, r11
	mov [rdi + 8 * fj], r10
%assign fj fj + 1
%endrep
%endmacro

; The column loop of both functions (%1 = 1: the squaring), r15 = k.
; Ranges: i0 = max(0, k - N + 1), i1 = min(k, N - 1) (the u m products:
; min(k - 1, N - 1)); every count and pointer is computed from k.
%macro COLUMNS 1
	xor r15d, r15d                  ; k
%%column:
%if %1 == 0
	; the products a_i b_(k-i), i0 <= i <= i1 = min(k, N - 1)
	lea rbx, [r15 - N + 1]
	xor eax, eax
	test rbx, rbx
	cmovs rbx, rax                  ; i0 (public)
	mov r14, N - 1
	cmp r15, r14
	cmovb r14, r15                  ; i1 (public)
	mov rbp, r14
	sub rbp, rbx
	inc rbp                         ; count
	lea r13, [rsi + 8 * r14 + 8]    ; a + 8 (i1 + 1)
	mov r9, r14
	sub r9, r15
	lea r9, [rsp + 8 * r9 + 16 * N] ; REV(N - 1 - k + i1 + 1) - 8
	MACS C0, C1, C2, r13, r9
%else
	; cross products a_i a_(k-i), i0 <= i <= c1 = (k - 1) / 2, once,
	; into rbx, r13, r14 (pointers in rcx, r9: m is in MREV)
	xor ebx, ebx
	xor r13d, r13d
	xor r14d, r14d
	lea r9, [r15 - N + 1]
	xor eax, eax
	test r9, r9
	cmovs r9, rax                   ; i0
	mov rbp, r15
	dec rbp
	sar rbp, 1                      ; c1 (-1 for k = 0)
	lea rcx, [rsi + 8 * rbp + 8]    ; a + 8 (c1 + 1)
	mov rax, rbp
	sub rax, r15
	sub rbp, r9
	inc rbp                         ; count (may be <= 0)
	lea r9, [rsp + 8 * rax + 16 * N] ; REV(N - 1 - k + c1 + 1) - 8
	xor eax, eax
	test rbp, rbp
	cmovs rbp, rax
	MACS rbx, r13, r14, rcx, r9
	add rbx, rbx                    ; doubled
	adc r13, r13
	adc r14, r14
	add C0, rbx
	adc C1, r13
	adc C2, r14
	test r15d, 1
	jnz %%odd                       ; ct: public column
	mov rax, [rsi + 4 * r15]        ; a_(k/2)^2
	mul rax
	add C0, rax
	adc C1, rdx
	adc C2, 0
%%odd:
%endif
	; the products u_i m_(k-i), i0 <= i <= min(k - 1, N - 1)
	lea rbx, [r15 - N + 1]
	xor eax, eax
	test rbx, rbx
	cmovs rbx, rax                  ; i0
	lea r14, [r15 - 1]
	mov rax, N - 1
	cmp r14, rax
	cmovg r14, rax                  ; i1
	mov rbp, r14
	sub rbp, rbx
	inc rbp                         ; count (0 for k = 0)
	lea r13, [rsp + 8 * r14 + 8]    ; T(i1 + 1)
	mov r9, r14
	sub r9, r15
	lea r9, [rsp + 8 * r9 + 24 * N] ; MREV(N - 1 - k + i1 + 1) - 8
	MACS C0, C1, C2, r13, r9
	cmp r15, N
	jae %%high                      ; ct: public column
	mov rax, C0
	imul rax, r8                    ; u_k = low m0inv mod 2^64
	mov [rsp + 8 * r15], rax
	mul qword MREV(N - 1)           ; m_0
	add C0, rax                     ; zero by the choice of u_k
	adc C1, rdx
	adc C2, 0
	jmp %%next
%%high:
	mov [rsp + 8 * r15 - 8 * N], C0 ; result word k - N
%%next:
	mov C0, C1
	mov C1, C2
	xor C2 %+ d, C2 %+ d
	inc r15
	cmp r15, 2 * N - 1
	jne %%column                    ; ct: public column
%endmacro

%macro MONT_COLS_BASE 2
%assign N %1
FUNC vg_mont_%2_base_%1
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	sub rsp, FRAME
%ifidn %2, mul
	REVERSE 8 * N, rdx
%else
	REVERSE 8 * N, rsi
%endif
	REVERSE 16 * N, rcx
	xor C0 %+ d, C0 %+ d
	xor C1 %+ d, C1 %+ d
	xor C2 %+ d, C2 %+ d
%ifidn %2, mul
	COLUMNS 0
%else
	COLUMNS 1
%endif
	; column 2N - 1 has no product: its word is the last result word and
	; the carry above it (0 or 1) the top of t < 2m
	mov [rsp + 8 * (N - 1)], C0
	mov rax, C1
	FINAL_REV
	MONT_WIPE 3 * N
	add rsp, FRAME
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret
ENDFUNC vg_mont_%2_base_%1
%endmacro

; The squarings only: the looped column multiply measured 1.05 (48 limbs)
; and 1.01 (64) of the row multiply of mont_base.asm, which stays; the
; squaring, with a quarter fewer products, 0.87 and 0.81 of it. The
; loops' exits (two a column, of varying length) cost about a
; misprediction each.
MONT_COLS_BASE 48, sqr
MONT_COLS_BASE 64, sqr
