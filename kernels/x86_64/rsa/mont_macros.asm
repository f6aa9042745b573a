; mont_macros.asm: the end of a Montgomery multiplication or squaring,
; shared by mont_base.asm, mont_adx.asm, mont_sqr_adx.asm and (through
; mont_fips_macros.asm) mont_sqr_base.asm: the final
; conditional subtraction (constant time: computed always, selected by a
; mask) and the wipe of the stack frame. Secret: t, m and the result.
%ifndef VG_MONT_MACROS_ASM
%define VG_MONT_MACROS_ASM 1

; The product t lives on the stack, one limb per qword.
%define T(j) [rsp + 8 * (j)]

; MONT_FINAL o, mask [, top]: t is the N limbs T(o..o+N-1) plus a top word
; (0 or 1) in register mask (loaded from top first when given; after the
; subtraction, so the flags of the borrow chain are untouched). With
; t < 2m: r (rdi, N limbs) = t - m (rcx) unless that borrows past the top
; word (mask = top - borrow is 0 or -1), then r = t. Uses r10, r11.
%macro MONT_FINAL 2-3
	mov r10, T(%1)
	sub r10, [rcx]
	mov [rdi], r10
%assign mf_j 1
%rep N - 1
	mov r10, T(%1 + mf_j)
	sbb r10, [rcx + 8 * mf_j]
	mov [rdi + 8 * mf_j], r10
%assign mf_j mf_j + 1
%endrep
%if %0 == 3
	mov %2, %3
%endif
	sbb %2, 0
%assign mf_j 0
%rep N
	mov r10, [rdi + 8 * mf_j]
	mov r11, T(%1 + mf_j)
	xor r11, r10
	and r11, %2
	xor r10, r11
	mov [rdi + 8 * mf_j], r10
%assign mf_j mf_j + 1
%endrep
%endmacro

; MONT_WIPE n: zero T(0..n-1), which held secret intermediates, 16 bytes
; a store (SSE2, every tier). Uses rax, xmm0.
%macro MONT_WIPE 1
	xor eax, eax
	pxor xmm0, xmm0
%assign mw_j 0
%rep (%1) / 2
	movdqu T(mw_j), xmm0
%assign mw_j mw_j + 2
%endrep
%if (%1) % 2
	mov T(mw_j), rax
%endif
%endmacro

%endif
