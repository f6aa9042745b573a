; vnorm_test.asm: TEST ONLY. The radix-2^52 normalisation macro VNORM
; (kernels/x86_64/rsa/rsa52_macros.asm), which amm52_ifma.asm inlines at
; the end of each multiply, wrapped in callable functions so checkasm can
; give it inputs no multiply reaches by chance (runs of carries through
; digits equal to 2^52 - 1). Nothing secret: test code.
;
; void vg_test_vnorm52_zZ(uint64_t *r, const uint64_t *lanes, uint64_t s,
;                         uint64_t n)
; lanes: 8Z qwords, the accumulator (lanes 0 and 1 ignored: s and n are
; the exact digits 0 and 1), its value below 2^(52 8Z). r: the 8Z digits
; below 2^52.

%include "x86_64/common/config.asm"
%include "x86_64/rsa/rsa52_macros.asm"

%define OFF(h) 0

%macro VNORM_TEST 1
%assign Z %1
FUNC vg_test_vnorm52_z%1
%assign k 0
%rep Z
	vmovdqu64 zmm %+ k, [rsi + 64 * k]
%assign k k + 1
%endrep
	mov r8, rdx
	mov r10, rcx
	VNORM 0, 0, 10, r8, r10
	vzeroupper
	ret
ENDFUNC vg_test_vnorm52_z%1
%endmacro

VNORM_TEST 3
VNORM_TEST 4
VNORM_TEST 5
VNORM_TEST 8
