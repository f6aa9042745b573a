; rsa52_macros.asm: shared by the radix-2^52 multiply (amm52_ifma.asm)
; and square (ams52_ifma.asm): the final carry pass over the stored
; result. Secret: the result digits.
%ifndef VG_RSA52_MACROS_ASM
%define VG_RSA52_MACROS_ASM 1

; NORM52 halves, off: carry through the L digits at rdi (and, when halves
; is 2, through those at rdi + off, interleaved) so that every digit is
; below 2^52; the carry out of the top digit is dropped (the result is
; below 2^(52 L)). Needs r10 = 52; uses rax, r9, r11, rdx.
%macro NORM52 2
	xor eax, eax
	xor r11d, r11d
%assign n52_j 0
%rep L
	add rax, [rdi + 8 * n52_j]
	bzhi r9, rax, r10
	mov [rdi + 8 * n52_j], r9
	shr rax, 52
%if %1 == 2
	add r11, [rdi + 8 * n52_j + %2]
	bzhi rdx, r11, r10
	mov [rdi + 8 * n52_j + %2], rdx
	shr r11, 52
%endif
%assign n52_j n52_j + 1
%endrep
%endmacro

%endif
