; rsa52_macros.asm: the final carry pass of the radix-2^52 multiply
; (amm52_ifma.asm), over the stored result (NORM52) or in the vector
; registers (VNORM; also wrapped for checkasm by
; tests/checkasm/rsa/vnorm_test.asm). Secret: the digits.
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

; VNORM h, XB, CB, s, n: the number of half h held in the Z registers
; zmm(XB + k) (lanes = digits, each below 2^64, the whole below 2^(52 L)),
; with its exact digits 0 and 1 in s and n instead of lanes 0 and 1,
; normalised to digits below 2^52 and stored at rdi + OFF(h), in the
; vector unit (about half the work and latency of NORM52): one pass adds
; each digit's bits above 52 to the next (every digit then below
; 2^52 + 2^12), then the remaining carries of 1 are found at once, as in
; a carry-lookahead adder: with G the digits above 2^52 - 1 and P those
; equal to it (bit masks, one bit a digit), the digits receiving a carry
; are ((G << 1) + P) xor P. Needs Z <= 8 (64 digits); uses zmm(CB + k),
; k3-k7, rax, rdx, r9, r11. The masks are secret values moved and added,
; never branched on.
%macro VNORM 5
%define %%X(k) zmm %+ %eval((%2) + (k))
%define %%C(k) zmm %+ %eval((%3) + (k))
	mov eax, 1
	kmovb k6, eax
	vpbroadcastq %%X(0) {k6}, %4            ; lane 0 = s
	mov eax, 2
	kmovb k7, eax
	vpbroadcastq %%X(0) {k7}, %5            ; lane 1 = n
%assign %%k 0
%rep Z
	vpsrlq %%C(%%k), %%X(%%k), 52
	vpandq %%X(%%k), %%X(%%k), [rel vn_m52]{1to8}
%assign %%k %%k + 1
%endrep
%assign %%k Z - 1
%rep Z - 1
	valignq %%C(%%k), %%C(%%k), %%C(%%k - 1), 7 ; each carry one lane up
%assign %%k %%k - 1
%endrep
	mov eax, 0xfe
	kmovb k5, eax
	valignq %%C(0) {k5}{z}, %%C(0), %%C(0), 7
	xor r9d, r9d                            ; G
	xor r11d, r11d                          ; P
%assign %%k 0
%rep Z
	vpaddq %%X(%%k), %%X(%%k), %%C(%%k)
	vpcmpuq k3, %%X(%%k), [rel vn_m52]{1to8}, 6
	vpcmpeqq k4, %%X(%%k), [rel vn_m52]{1to8}
	kmovb eax, k3
	kmovb edx, k4
%if %%k > 0
	shl rax, 8 * %%k
	shl rdx, 8 * %%k
%endif
	or r9, rax
	or r11, rdx
%assign %%k %%k + 1
%endrep
	lea rax, [r11 + 2 * r9]
	xor rax, r11                            ; the digits receiving a carry
%assign %%k 0
%rep Z
%if %%k > 0
	shr rax, 8
%endif
	kmovb k3, eax
	vpaddq %%X(%%k) {k3}, %%X(%%k), [rel vn_one]{1to8}
	vpandq %%X(%%k), %%X(%%k), [rel vn_m52]{1to8}
	vmovdqu64 [rdi + 64 * %%k + OFF(%1)], %%X(%%k)
%assign %%k %%k + 1
%endrep
%endmacro

RODATA
align 8
vn_m52: dq (1 << 52) - 1
vn_one: dq 1

%endif
