; mont_adx.asm: Montgomery multiplication at the adx tier (mulx with the two
; carry chains of adcx/adox), fully unrolled for 16, 24, 32, 48 and 64
; limbs (CRT halves of RSA-2048/3072/4096, and the moduli for the public op). Secret: every operand, the modulus and
; m0inv. No branch and no address depends on them: the only branch is the
; row counter (public), addresses are the argument pointers plus constants.
;
; void vg_mont_mul_adx_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                        const uint64_t *m, uint64_t m0inv, size_t n)
; Same contract as vg_mont_mul_c (mont.h) with n == N (the argument is
; ignored): r = a b R^-1 mod m, b < m, a < R, r fully reduced, r may alias
; a or b (r is written only after the last read of a and b).

%include "x86_64/common/config.asm"

; t lives on the stack: N + 2 limbs (t < 2m plus the carry of a row).
%include "x86_64/rsa/mont_macros.asm"

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
MONT_MUL_ADX 64
