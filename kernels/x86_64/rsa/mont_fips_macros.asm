; mont_fips_macros.asm: Montgomery arithmetic by columns ("product
; scanning") for the base tier, shared by mont_base.asm and
; mont_sqr_base.asm. Column k of a Montgomery product gathers every
; a_i b_j and u_i m_j with i + j = k, plus the incoming T(k) of a
; reduction, in a three-word accumulator held in registers: one add and
; two adc a product (mul clobbers the flags, so the row form needs four
; add/adc, two moves and a store of t a product). Below column N the
; accumulator's low word fixes u_k = low m0inv, and u_k m_0 clears it;
; from column N on the low word is result word k - N. Fully unrolled:
; every index is a constant. Secret: every operand, the modulus, m0inv
; and the u_k; no branch and no address depends on them.
;
; Register use: rax, rdx (mul), r10, r11, r12 (the accumulator, renamed
; as it rotates), r8 = m0inv, rcx = m. The u_k and the result words share
; the stack slots T(0..N-1): u_k is written at column k and last read at
; column k + N - 1, result word k - N is written at column k.
%ifndef VG_MONT_FIPS_MACROS_ASM
%define VG_MONT_FIPS_MACROS_ASM 1

%include "x86_64/rsa/mont_macros.asm"

; FIPS_MAC a-operand, b-operand: (C0, C1, C2) += a b (a loaded to rax).
%macro FIPS_MAC 2
	mov rax, %1
	mul qword %2
	add C0, rax
	adc C1, rdx
	adc C2, 0
%endmacro

; FIPS_ROTATE: the accumulator moves up one word; the new top is zero.
%macro FIPS_ROTATE 0
%xdefine FIPS_T C0
%xdefine C0 C1
%xdefine C1 C2
%xdefine C2 FIPS_T
	xor C2 %+ d, C2 %+ d
%endmacro

; FIPS_UCOLUMN k: the u m products of column k, then u_k (k < N) or
; result word k - N (k >= N), then the rotation. The caller has added
; this column's other terms.
%macro FIPS_UCOLUMN 1
%assign fk %1
%if fk < N
%assign fi 0
%rep fk
	FIPS_MAC T(fi), [rcx + 8 * (fk - fi)]
%assign fi fi + 1
%endrep
	mov rax, C0
	imul rax, r8                    ; u_k = low m0inv mod 2^64
	mov T(fk), rax
	mul qword [rcx]
	add C0, rax                     ; zero by the choice of u_k
	adc C1, rdx
	adc C2, 0
%else
%assign fi fk - N + 1
%rep 2 * N - 1 - fk
	FIPS_MAC T(fi), [rcx + 8 * (fk - fi)]
%assign fi fi + 1
%endrep
	mov T(fk - N), C0               ; result word k - N (u_{k-N} is spent)
%endif
	FIPS_ROTATE
%endmacro

; FIPS_START: the accumulator registers, zeroed.
%macro FIPS_START 0
%xdefine C0 r10
%xdefine C1 r11
%xdefine C2 r12
	xor r10d, r10d
	xor r11d, r11d
	xor r12d, r12d
%endmacro

%endif
