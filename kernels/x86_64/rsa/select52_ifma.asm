; select52_ifma.asm: constant-time table read of the ifma tier's paired
; exponentiation: sel = table[ip] for half 0 and table[iq] for half 1,
; reading all 32 entries whole and keeping one per half under a vector
; compare mask (vpcmpeqq + masked register move). Secret: ip, iq and the
; table. Every entry is loaded in full whatever the indices (loads are
; unmasked; only register moves are masked), and the only branch is the
; entry counter. On Zen 4 the scan is bound by its loads (one zmm a
; cycle): masks made in the integer unit (sete, kmovb) were no faster.
;
; void vg_rsa52_select2_ifma_S(uint64_t *sel, const uint64_t *table,
;                              uint64_t ip, uint64_t iq)
; S = 24, 32, 40: qwords per half (half 1 at offset S); table entries are
; 2 * 40 qwords apart (rsa52.c's layout), 32 entries (5-bit windows).

%include "x86_64/common/config.asm"

%define ENTRY_BYTES (2 * 40 * 8)
%define ENTRIES 32                      ; VG_RSA52_TABLE (rsa52.h)

%macro SELECT2 1
%assign S %1
%assign Z S / 8
; at 20 digits (S = 24) the last register of a half holds 4 digits: it is
; read and kept as a ymm (the zmm's upper lanes stay zero, so the stores
; write zeros above the digits, as the table holds there): 0.88 of the
; time of whole zmm reads
%assign HALFLAST (S == 24)
FUNC vg_rsa52_select2_ifma_%1
	vpbroadcastq zmm0, rdx                 ; ip in every lane
	vpbroadcastq zmm1, rcx                 ; iq
	vpxorq zmm2, zmm2, zmm2                ; entry number i in every lane
	mov eax, 1
	vpbroadcastq zmm3, rax                 ; 1, to step i
%assign k 0
%rep 2 * Z
	vpxorq zmm %+ %eval(8 + k), zmm %+ %eval(8 + k), zmm %+ %eval(8 + k)
%assign k k + 1
%endrep
	lea r8, [rsi + ENTRIES * ENTRY_BYTES]  ; end of the table
%%entry:
	vpcmpeqq k1, zmm2, zmm0                ; all lanes set iff i == ip
	vpcmpeqq k2, zmm2, zmm1
%assign k 0
%rep Z
%if HALFLAST && k == Z - 1
	vmovdqu64 ymm4, [rsi + 64 * k]
	vmovdqu64 ymm5, [rsi + 64 * k + 8 * S]
	vmovdqa64 ymm %+ %eval(8 + k) {k1}, ymm4
	vmovdqa64 ymm %+ %eval(8 + Z + k) {k2}, ymm5
%else
	vmovdqu64 zmm4, [rsi + 64 * k]
	vmovdqu64 zmm5, [rsi + 64 * k + 8 * S]
	vmovdqa64 zmm %+ %eval(8 + k) {k1}, zmm4
	vmovdqa64 zmm %+ %eval(8 + Z + k) {k2}, zmm5
%endif
%assign k k + 1
%endrep
	vpaddq zmm2, zmm2, zmm3
	add rsi, ENTRY_BYTES
	cmp rsi, r8
	jne %%entry
%assign k 0
%rep Z
	vmovdqu64 [rdi + 64 * k], zmm %+ %eval(8 + k)
	vmovdqu64 [rdi + 64 * k + 8 * S], zmm %+ %eval(8 + Z + k)
%assign k k + 1
%endrep
	; clear the registers that held table entries and indices
%assign k 0
%rep 2 * Z
	vpxorq zmm %+ %eval(8 + k), zmm %+ %eval(8 + k), zmm %+ %eval(8 + k)
%assign k k + 1
%endrep
	vpxorq zmm0, zmm0, zmm0
	vpxorq zmm1, zmm1, zmm1
	vpxorq zmm4, zmm4, zmm4
	vpxorq zmm5, zmm5, zmm5
	kxorq k1, k1, k1
	kxorq k2, k2, k2
	vzeroupper
	ret
ENDFUNC vg_rsa52_select2_ifma_%1
%endmacro

SELECT2 24
SELECT2 32
SELECT2 40
