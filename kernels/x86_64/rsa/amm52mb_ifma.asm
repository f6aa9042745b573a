; amm52mb_ifma.asm: the ifma row of the rsa_mb family
; (kernels/src/rsa/rsa_mb_impl.h): "almost Montgomery" multiplication in
; radix 2^52 of eight independent numbers at once, one per 64-bit lane,
; and the eight-lane masked table read, with AVX-512 IFMA.
; Secret: every operand, modulus, k0 and table index. No branch and no
; address depends on them: the only branch is the table read's entry
; counter (public); every address is an argument pointer plus a constant,
; or the table pointer advanced by a constant.
;
; void vg_amm52mb_ifma_20(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                         const uint64_t *m, const uint64_t k0[8])
; Transposed numbers of L = 20 digits: digit j of lane l at qword 8 j + l,
; so digit j of all lanes is the zmm at byte 64 j. Per lane, r = a b
; 2^(-52 L) mod m "almost" (a, b < 2 m, 4 m < 2^(52 L): r < 2 m), digits
; of r below 2^52. r may alias a or b (written after the last read).
;
; Method: operand scanning by digit of b, with no carry inside the loop.
; The accumulator A[0..L] is L + 1 registers, one per digit position,
; each digit holding a sum of 52-bit halves in 64 bits. Step i:
;   A[j] += lo(a_j b_i), A[j + 1] += hi(a_j b_i)        (j < L)
;   y = lo(A[0] k0)                                      (IFMA reads A[0]'s low 52 bits)
;   A[j] += lo(m_j y), A[j + 1] += hi(m_j y)
;   A[1] += A[0] >> 52; drop A[0]                        (A[0] is 0 mod 2^52 now)
; Dropping A[0] is a renaming: the registers form a ring of L + 1 and the
; one dropped at a step is zeroed to become the next step's A[L]. A
; register lives L + 1 steps and receives at most four 52-bit halves and
; a carry below 2^12 per step: below 84 2^52 < 2^59, no overflow. The
; y of each step is computed from the exact running sum mod 2^52, so the
; value is the digit-serial method's (rsa52.c's vg_amm52_c) and one
; carry pass at the end gives the same digits.
;
; void vg_rsa52mb_select_ifma_20(uint64_t *sel, const uint64_t *table,
;                                const uint64_t idx[8])
; sel = table[idx[l]] in lane l, 32 entries of 20 transposed digits,
; every entry read whole: per entry a lane mask from idx == entry (a
; vector compare), then sel |= mask & entry digit by digit.

%include "x86_64/common/config.asm"

%define L 20
%define NA (L + 1)                      ; accumulator registers zmm0..zmm20
%define A(i, j) zmm %+ %eval(((i) + (j)) % NA)
%define ZB zmm21                        ; b_i
%define ZY zmm22                        ; y
%define ZK zmm23                        ; k0 of each lane
%define ZT zmm24                        ; carry temporary
%define ZM zmm25                        ; 2^52 - 1 in every lane

; STEP i: one digit of b (the method above), registers renamed by i.
%macro STEP 1
%assign %%i %1
	vmovdqu64 ZB, [rdx + 64 * %%i]
%if %%i > 0
	vpxorq A(%%i, L), A(%%i, L), A(%%i, L)  ; the ring's free register: A[L]
%endif
	vpmadd52luq A(%%i, 0), ZB, [rsi]
	vpxorq ZY, ZY, ZY
	vpmadd52luq ZY, A(%%i, 0), ZK           ; y = A[0] k0 mod 2^52
%assign %%j 1
%rep L - 1
	vpmadd52luq A(%%i, %%j), ZB, [rsi + 64 * %%j]
%assign %%j %%j + 1
%endrep
%assign %%j 0
%rep L
	vpmadd52huq A(%%i, %%j + 1), ZB, [rsi + 64 * %%j]
%assign %%j %%j + 1
%endrep
	; the y products: A[0] and A[1] first (the next step's y needs them)
	vpmadd52luq A(%%i, 0), ZY, [rcx]
	vpmadd52luq A(%%i, 1), ZY, [rcx + 64]
	vpmadd52huq A(%%i, 1), ZY, [rcx]
	vpsrlq ZT, A(%%i, 0), 52
	vpaddq A(%%i, 1), A(%%i, 1), ZT
%assign %%j 2
%rep L - 2
	vpmadd52luq A(%%i, %%j), ZY, [rcx + 64 * %%j]
%assign %%j %%j + 1
%endrep
%assign %%j 1
%rep L - 1
	vpmadd52huq A(%%i, %%j + 1), ZY, [rcx + 64 * %%j]
%assign %%j %%j + 1
%endrep
%endmacro

FUNC vg_amm52mb_ifma_20
%assign i 0
%rep NA
	vpxorq zmm %+ i, zmm %+ i, zmm %+ i
%assign i i + 1
%endrep
	vmovdqu64 ZK, [r8]
	vpbroadcastq ZM, [rel m52]
%assign i 0
%rep L
	STEP i
%assign i i + 1
%endrep
	; after L steps the result's digit j is A(L, j): carry once through
	; them (each below 2^59; the value below 2^(52 L), so the carry out of
	; the top digit is zero, and its mask drops nothing)
%assign j 0
%rep L
%if j < L - 1
	vpsrlq ZT, A(L, j), 52
	vpaddq A(L, j + 1), A(L, j + 1), ZT
%endif
	vpandq A(L, j), A(L, j), ZM
	vmovdqu64 [rdi + 64 * j], A(L, j)
%assign j j + 1
%endrep
	vzeroupper
	ret
ENDFUNC vg_amm52mb_ifma_20

%define TBL 32                          ; VG_RSA_MB_TABLE
%define S(j) zmm %+ j                   ; sel digit j: zmm0..zmm19
%define ZIDX zmm30                      ; idx of each lane
%define ZCNT zmm31                      ; the entry number, in every lane
%define ZONE zmm29
%define ZMSK zmm28

FUNC vg_rsa52mb_select_ifma_20
	vmovdqu64 ZIDX, [rdx]
	vpxorq ZCNT, ZCNT, ZCNT
	vpbroadcastq ZONE, [rel one]
%assign j 0
%rep L
	vpxorq S(j), S(j), S(j)
%assign j j + 1
%endrep
	mov eax, TBL
align 32
.entry:
	vpcmpeqq k1, ZIDX, ZCNT
	vpmovm2q ZMSK, k1                       ; all-ones in the lanes that keep it
%assign j 0
%rep L
	vpternlogq S(j), ZMSK, [rsi + 64 * j], 0xf8 ; S | (mask & entry)
%assign j j + 1
%endrep
	vpaddq ZCNT, ZCNT, ZONE
	add rsi, 64 * L
	dec eax
	jnz .entry
%assign j 0
%rep L
	vmovdqu64 [rdi + 64 * j], S(j)
%assign j j + 1
%endrep
	vzeroupper
	ret
ENDFUNC vg_rsa52mb_select_ifma_20

RODATA
align 8
m52: dq (1 << 52) - 1
one: dq 1
