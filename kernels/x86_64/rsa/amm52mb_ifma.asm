; amm52mb_ifma.asm: the ifma row of the rsa_mb family
; (kernels/src/rsa/rsa_mb_impl.h): "almost Montgomery" multiplication in
; radix 2^52 of eight independent numbers at once, one per 64-bit lane,
; and the eight-lane masked table read, with AVX-512 IFMA.
; Secret: every operand, modulus, k0 and table index. No branch and no
; address depends on them: the only branches are loop counters (the
; table read's entries, the 30- and 40-digit multiplies' steps); every
; address is an argument pointer plus a constant,
; or the table pointer advanced by a constant.
;
; void vg_amm52mb_ifma_20(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                         const uint64_t *m, const uint64_t k0[8])
; (and vg_amm52mb_sqr_ifma_20 for b == a; the 30- and 40-digit multiplies,
; those that read b from the table themselves, and the table reads of
; every size are further down)
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

%define TBL 32                          ; VG_RSA_MB_TABLE
%define L 20
%define NA (L + 1)                      ; accumulator registers zmm0..zmm20
%define A(i, j) zmm %+ %eval(((i) + (j)) % NA)
%define ZB zmm21                        ; b_i
%define ZY zmm22                        ; y
%define ZK zmm23                        ; k0 of each lane
%define ZT zmm24                        ; carry temporary
%define ZM zmm25                        ; 2^52 - 1 in every lane

; MY i: the m y half of step i, y = A[0] k0 mod 2^52 already in ZY: the
; products into A[0..L], A[0] and A[1] first (the next step's y needs
; them), then the carry out of A[0] into A[1].
%macro MY 1
%assign %%i %1
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
	MY %%i
%endmacro

; The final carry pass of both functions: after L steps the result's
; digit j is A(L, j) (each below 2^59; the value is below 2^(52 L), so the
; carry out of the top digit is zero and its mask drops nothing).
%macro FINAL 0
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
%endmacro

; WIPE n: zero zmm0..zmm(n-1) (they held secrets), then vzeroupper.
%macro WIPE 1
%assign %%k 0
%rep %1
	vpxorq zmm %+ %%k, zmm %+ %%k, zmm %+ %%k
%assign %%k %%k + 1
%endrep
	vzeroupper
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
	FINAL
	WIPE 26
	ret
ENDFUNC vg_amm52mb_ifma_20

; The squaring's frame: e_j = 2 a_j mod 2^52 and d_j = e_j + (a_(j-1) >>
; 51), the digits of 2a normalised (d_j is even plus at most 1: below
; 2^52), both 64-byte aligned.
%define EJ(j) [rsp + 64 * (j)]
%define DJ(j) [rsp + 64 * L + 64 * (j)]
%define SQFRAME (128 * L + 64)

; SQSTEP i: step i of the squaring. Weight i + j goes to A[j] as in STEP;
; of the products a_i a_j only j >= i are taken, the cross ones doubled:
; sum_(j > i) 2 a_j 2^(52 j) is e_(i+1) 2^(52 (i+1)) + sum_(j > i+1) d_j
; 2^(52 j) (d_(i+1) would count a_i's top bit, which is a_i's own digit
; of 2a). Every product of weight i lands by step i (at step min(j, k)
; <= i), so A[0] is complete at the start of step i > 0, and y comes
; first.
%macro SQSTEP 1
%assign %%i %1
	vmovdqu64 ZB, [rsi + 64 * %%i]
%if %%i > 0
	vpxorq A(%%i, L), A(%%i, L), A(%%i, L)
	vpxorq ZY, ZY, ZY
	vpmadd52luq ZY, A(%%i, 0), ZK
%endif
	vpmadd52luq A(%%i, %%i), ZB, ZB
%if %%i == 0
	vpxorq ZY, ZY, ZY
	vpmadd52luq ZY, A(%%i, 0), ZK
%endif
	vpmadd52huq A(%%i, %%i + 1), ZB, ZB
%if %%i + 1 < L
	vpmadd52luq A(%%i, %%i + 1), ZB, EJ(%%i + 1)
	vpmadd52huq A(%%i, %%i + 2), ZB, EJ(%%i + 1)
%endif
%assign %%j %%i + 2
%if %%i + 2 < L
%rep L - %%i - 2
	vpmadd52luq A(%%i, %%j), ZB, DJ(%%j)
	vpmadd52huq A(%%i, %%j + 1), ZB, DJ(%%j)
%assign %%j %%j + 1
%endrep
%endif
	MY %%i
%endmacro

; void vg_amm52mb_sqr_ifma_20(uint64_t *r, const uint64_t *a,
;                             const uint64_t *b, const uint64_t *m,
;                             const uint64_t k0[8])
; r = a a 2^(-52 L) "almost", the multiply's result for b == a (b is not
; read: the slot's contract is b == a), with about 0.8 of its products.
FUNC vg_amm52mb_sqr_ifma_20
	push rbp
	mov rbp, rsp
	sub rsp, SQFRAME
	and rsp, -64
%assign i 0
%rep NA
	vpxorq zmm %+ i, zmm %+ i, zmm %+ i
%assign i i + 1
%endrep
	vmovdqu64 ZK, [r8]
	vpbroadcastq ZM, [rel m52]
	; e and d (ZB, ZY and ZT as temporaries: the steps load their own)
%assign j 0
%rep L
	vmovdqu64 ZB, [rsi + 64 * j]
	vpaddq ZY, ZB, ZB
	vpandq ZY, ZY, ZM
	vmovdqa64 EJ(j), ZY
%if j > 0
	vpaddq ZY, ZY, ZT
	vmovdqa64 DJ(j), ZY
%endif
	vpsrlq ZT, ZB, 51
%assign j j + 1
%endrep
%assign i 0
%rep L
	SQSTEP i
%assign i i + 1
%endrep
	FINAL
	WIPE 26
%assign j 0
%rep 2 * L
	vmovdqa64 [rsp + 64 * j], zmm0
%assign j j + 1
%endrep
	mov rsp, rbp
	pop rbp
	ret
ENDFUNC vg_amm52mb_sqr_ifma_20

; void vg_amm52mb_win_ifma_20(uint64_t *acc, const uint64_t *table,
;                             const uint64_t idx[8], const uint64_t *m,
;                             const uint64_t k0[8], size_t nsq)
; One window of the exponentiation in one call: sel = table[idx] (the
; scan of vg_rsa52mb_select_ifma_20, into the frame), nsq (public)
; squarings acc = acc acc, then acc = acc sel, each the functions above
; (the same bits as a table read and nsq + 1 calls); the frame is set up
; and wiped once, not per multiply, and sel never leaves it.
%define SELJ(j) [rsp + 128 * L + 64 * (j)]
FUNC vg_amm52mb_win_ifma_20
	push rbp
	mov rbp, rsp
	sub rsp, SQFRAME + 64 * L
	and rsp, -64
	; sel: every entry read whole, kept under its lane mask (zmm0..19 the
	; digits, zmm28 the mask, zmm29 one, zmm30 idx, zmm31 the entry number)
	vmovdqu64 zmm30, [rdx]
	vpbroadcastq zmm29, [rel one]
	vpxorq zmm31, zmm31, zmm31
%assign j 0
%rep L
	vpxorq zmm %+ j, zmm %+ j, zmm %+ j
%assign j j + 1
%endrep
	mov r10, rsi
	mov eax, TBL
align 32
.sel:
	vpcmpeqq k1, zmm30, zmm31
	vpmovm2q zmm28, k1
%assign j 0
%rep L
	vpternlogq zmm %+ j, zmm28, [r10 + 64 * j], 0xf8 ; sel | (mask & entry)
%assign j j + 1
%endrep
	vpaddq zmm31, zmm31, zmm29
	add r10, 64 * L
	dec eax
	jnz .sel
	kxorw k1, k1, k1
%assign j 0
%rep L
	vmovdqa64 SELJ(j), zmm %+ j
%assign j j + 1
%endrep
	; the macros' registers: r = a = acc, b = sel, m (rcx), k0 (r8); r9
	; counts
	mov rsi, rdi
	lea rdx, SELJ(0)
	vmovdqu64 ZK, [r8]
	vpbroadcastq ZM, [rel m52]
	test r9, r9
	jz .mul
align 32
.sqr:
%assign i 0
%rep NA
	vpxorq zmm %+ i, zmm %+ i, zmm %+ i
%assign i i + 1
%endrep
%assign j 0
%rep L
	vmovdqu64 ZB, [rsi + 64 * j]
	vpaddq ZY, ZB, ZB
	vpandq ZY, ZY, ZM
	vmovdqa64 EJ(j), ZY
%if j > 0
	vpaddq ZY, ZY, ZT
	vmovdqa64 DJ(j), ZY
%endif
	vpsrlq ZT, ZB, 51
%assign j j + 1
%endrep
%assign i 0
%rep L
	SQSTEP i
%assign i i + 1
%endrep
	FINAL
	dec r9
	jnz .sqr
.mul:
%assign i 0
%rep NA
	vpxorq zmm %+ i, zmm %+ i, zmm %+ i
%assign i i + 1
%endrep
%assign i 0
%rep L
	STEP i
%assign i i + 1
%endrep
	FINAL
	WIPE 26
%assign j 0
%rep 3 * L
	vmovdqa64 [rsp + 64 * j], zmm0
%assign j j + 1
%endrep
	mov rsp, rbp
	pop rbp
	ret
ENDFUNC vg_amm52mb_win_ifma_20

; void vg_amm52mb_ifma_30, vg_amm52mb_ifma_40 (the multiply's arguments):
; the same multiply for 30 and 40 digits, whose L + 2 accumulator digits
; do not fit in the registers: A[0..K-1] stay in zmm0..zmm(K-1) and
; A[K..L-1] in a stack frame. A fully unrolled step sequence would be
; 25 to 50 KiB of code, past the L1 instruction cache, so the steps are a
; loop and the accumulator moves down physically. One pass of the loop
; does two steps, i and i + 1 (L is even), target digit by target digit
; as the squaring's reduction below: A[q] += lo(a_q b_i) + hi(a_(q-1)
; b_i) + lo(a_(q-1) b_(i+1)) + hi(a_(q-2) b_(i+1)) and the same four
; with m and y_i, y_(i+1). Each digit of a and of m is loaded into a
; register once per pass and used for its four products (three registers
; in turn for each: target q needs digits q, q - 1 and q - 2), where one
; step per pass took every product's operand from memory: two loads per
; two products, and the loads, not the products, were the limit (about a
; quarter of the 40-digit multiply's time, measured). A pass also moves
; the registers and stores the frame once for two steps.
; y_i is computed from A[0] after lo(a_0 b_i); y_(i+1) from A[1] once it
; holds every product of weight i + 1 of step i, A[0]'s carry and
; lo(a_0 b_(i+1)): the exact running sum of the digit-serial method, so
; the y and the result are the one-step multiply's.
; Bound: the digit of weight w receives halves from the steps w - L - 1
; .. w only, four per step, and carries below 2^9: below (4 (L + 2) + 2)
; 2^52 < 2^60 for L = 40, no overflow.
;
; void vg_amm52mb_mulsel_ifma_30, vg_amm52mb_mulsel_ifma_40(uint64_t *r,
;     const uint64_t *a, const uint64_t *table, const uint64_t *idx,
;     const uint64_t *m, const uint64_t k0[8])
; (GMUL's third argument 1): the same multiply for b = table[idx[l]] in
; lane l, read as vg_rsa52mb_select_ifma_L reads it but two digits per
; pass: every entry's digits i and i + 1, each kept under its lane mask
; (built once from idx by a vector compare per entry, kept in the frame).
; At 30 and 40 digits the table (60 and 80 KiB) does not fit in the L1
; data cache, and the separate read waited on the L2 (half a multiply's
; time at 40 digits, measured on AMD Zen 5); inside the multiply its loads
; and masks run beside the products. Every entry is read at every pass:
; no address depends on idx.
%macro GMUL 3
%push gmul
%define %$L %1
%define %$K %2
%define %$SEL %3                        ; 1: b is table[idx], read here
%define %$NM (%1 - %2)                  ; digits in the frame
%define %$S(p) [rsp + 64 * ((p) - %2)]  ; A[p], K <= p < L
%define %$MASK(e) [rsp + 64 * %$NM + 64 * (e)] ; SEL: entry e's lane mask
%define %$ZB0 zmm19                     ; b_i
%define %$ZB1 zmm20                     ; b_(i+1)
%define %$ZY0 zmm21                     ; y_i
%define %$ZY1 zmm22                     ; y_(i+1)
%define %$ZK zmm23                      ; k0 of each lane
%define %$ZT zmm24                      ; carry temporary
%define %$ZMEM zmm25                    ; a frame digit
%define %$RA(r) zmm %+ %eval(26 + (r) % 3) ; a_r, a_(r-1), a_(r-2) in turn
%define %$RM(r) zmm %+ %eval(29 + (r) % 3) ; and m's
%if %$SEL
FUNC vg_amm52mb_mulsel_ifma_%1
%else
FUNC vg_amm52mb_ifma_%1
%endif
	push rbp
	mov rbp, rsp
%if %$SEL
	sub rsp, 64 * %$NM + 64 * TBL + 64
%else
	sub rsp, 64 * %$NM + 64
%endif
	and rsp, -64
%assign %%k 0
%rep 32
	vpxorq zmm %+ %%k, zmm %+ %%k, zmm %+ %%k
%assign %%k %%k + 1
%endrep
%assign %%p %$K
%rep %$NM
	vmovdqa64 %$S(%%p), zmm0
%assign %%p %%p + 1
%endrep
%if %$SEL
	; (r, a, table, idx, m, k0): the masks of every entry from idx (a
	; vector compare per entry), then m and k0 where the multiply has them
	vmovdqu64 %$ZT, [rcx]                   ; idx of each lane
	vpbroadcastq %$ZMEM, [rel one]
%assign %%e 0
%rep TBL
	vpcmpeqq k1, %$ZT, zmm0                 ; zmm0: the entry number e
	vpmovm2q %$ZY0, k1                      ; all-ones in the lanes that keep entry e
	vmovdqa64 %$MASK(%%e), %$ZY0
	vpaddq zmm0, zmm0, %$ZMEM
%assign %%e %%e + 1
%endrep
	vpxorq zmm0, zmm0, zmm0
	mov rcx, r8
	mov r8, r9
%endif
	vmovdqu64 %$ZK, [r8]
	mov eax, %$L / 2
align 32
%%step:
%if %$SEL
	; b_i and b_(i+1): every entry's digits read, each kept under its
	; mask (two chains per digit, ZY0 and ZY1 free until the y)
	vpxorq %$ZB0, %$ZB0, %$ZB0
	vpxorq %$ZB1, %$ZB1, %$ZB1
	vpxorq %$ZY0, %$ZY0, %$ZY0
	vpxorq %$ZY1, %$ZY1, %$ZY1
%assign %%e 0
%rep TBL
%if %%e % 2 == 0
%define %%C0 %$ZB0
%define %%C1 %$ZB1
%define %%MK %$ZMEM
%else
%define %%C0 %$ZY0
%define %%C1 %$ZY1
%define %%MK %$ZT
%endif
	vmovdqa64 %%MK, %$MASK(%%e)
	vpternlogq %%C0, %%MK, [rdx + 64 * %$L * %%e], 0xf8        ; C | (mask & digit)
	vpternlogq %%C1, %%MK, [rdx + 64 * %$L * %%e + 64], 0xf8
%assign %%e %%e + 1
%endrep
	vporq %$ZB0, %$ZB0, %$ZY0
	vporq %$ZB1, %$ZB1, %$ZY1
%else
	vmovdqu64 %$ZB0, [rdx]
	vmovdqu64 %$ZB1, [rdx + 64]
%endif
	vmovdqu64 %$RA(0), [rsi]
	vmovdqu64 %$RA(1), [rsi + 64]
	vmovdqu64 %$RM(0), [rcx]
	vmovdqu64 %$RM(1), [rcx + 64]
	vpmadd52luq zmm0, %$ZB0, %$RA(0)
	vpxorq %$ZY0, %$ZY0, %$ZY0
	vpmadd52luq %$ZY0, zmm0, %$ZK           ; y0 = A[0] k0 mod 2^52
	; A[1]'s products without y0 while y0 is computed
	vpmadd52huq zmm1, %$ZB0, %$RA(0)
	vpmadd52luq zmm1, %$ZB0, %$RA(1)
	vpmadd52luq zmm1, %$ZB1, %$RA(0)
	vpmadd52luq zmm0, %$ZY0, %$RM(0)
	vpmadd52huq zmm1, %$ZY0, %$RM(0)
	vpmadd52luq zmm1, %$ZY0, %$RM(1)
	vpsrlq %$ZT, zmm0, 52
	vpaddq zmm1, zmm1, %$ZT
	vpxorq %$ZY1, %$ZY1, %$ZY1
	vpmadd52luq %$ZY1, zmm1, %$ZK           ; y1 = A[1] k0 mod 2^52
	vpmadd52luq zmm1, %$ZY1, %$RM(0)
	vpsrlq %$ZT, zmm1, 52
	vpaddq zmm2, zmm2, %$ZT
%assign %%q 2
%rep %$L
%if %%q == %$K
	; A[2..K-1] are complete: move them down before A[K] and A[K + 1]
	; take their places
%assign %%p 0
%rep %$K - 2
	vmovdqa64 zmm %+ %%p, zmm %+ %eval(%%p + 2)
%assign %%p %%p + 1
%endrep
%endif
%if %%q < %$K
%define %%X zmm %+ %%q
%elif %%q < %$K + 2
%define %%X zmm %+ %eval(%%q - 2)
	vmovdqa64 %%X, %$S(%%q)
%else
%define %%X %$ZMEM
%if %%q < %$L
	vmovdqa64 %%X, %$S(%%q)
%else
	vpxorq %%X, %%X, %%X                    ; A[L], A[L + 1] start at zero
%endif
%endif
%if %%q < %$L
	vmovdqu64 %$RA(%%q), [rsi + 64 * %%q]
	vmovdqu64 %$RM(%%q), [rcx + 64 * %%q]
	vpmadd52luq %%X, %$ZB0, %$RA(%%q)
%endif
%if %%q - 1 < %$L
	vpmadd52huq %%X, %$ZB0, %$RA(%%q - 1)
	vpmadd52luq %%X, %$ZB1, %$RA(%%q - 1)
%endif
	vpmadd52huq %%X, %$ZB1, %$RA(%%q - 2)
%if %%q < %$L
	vpmadd52luq %%X, %$ZY0, %$RM(%%q)
%endif
%if %%q - 1 < %$L
	vpmadd52huq %%X, %$ZY0, %$RM(%%q - 1)
	vpmadd52luq %%X, %$ZY1, %$RM(%%q - 1)
%endif
	vpmadd52huq %%X, %$ZY1, %$RM(%%q - 2)
%if %%q >= %$K + 2
	vmovdqa64 %$S(%%q - 2), %%X
%endif
%assign %%q %%q + 1
%endrep
	add rdx, 128
	dec eax
	jnz %%step
	; the carry pass: A[0..K-1] in registers, then the frame's
%assign %%j 0
%rep %$L
%if %%j < %$K
%define %%X zmm %+ %%j
%else
%define %%X %$ZMEM
	vmovdqa64 %$ZMEM, %$S(%%j)
%endif
%if %%j > 0
	vpaddq %%X, %%X, %$ZT
%endif
	vpsrlq %$ZT, %%X, 52
	vpandq %%X, %%X, [rel m52]{1to8}
	vmovdqu64 [rdi + 64 * %%j], %%X
%assign %%j %%j + 1
%endrep
	WIPE 32
%if %$SEL
	kxorw k1, k1, k1
%assign %%p 0
%rep %$NM + TBL
	vmovdqa64 [rsp + 64 * %%p], zmm0
%assign %%p %%p + 1
%endrep
%else
%assign %%p 0
%rep %$NM
	vmovdqa64 [rsp + 64 * %%p], zmm0
%assign %%p %%p + 1
%endrep
%endif
	mov rsp, rbp
	pop rbp
	ret
%if %$SEL
ENDFUNC vg_amm52mb_mulsel_ifma_%1
%else
ENDFUNC vg_amm52mb_ifma_%1
%endif
%pop
%endmacro

GMUL 30, 19, 0
GMUL 40, 19, 0
GMUL 30, 19, 1
GMUL 40, 19, 1

; void vg_amm52mb_sqr_ifma_30, vg_amm52mb_sqr_ifma_40 (the multiply's
; arguments, b == a and not read): the squaring in two phases, the same
; bits as the multiply. First the whole square T = a^2 (2L digits, each
; a sum of 52-bit halves below 2^59) by columns, fully unrolled (the
; triangle's shape changes with the column): the products a_i a_j, i < j,
; of a column once, doubled, plus its diagonal term; a_0..a_28 stay in
; registers. Then the Montgomery reduction of T, looped as in GMUL but two
; steps per pass: the accumulator starts as T[0..L-1] (A[0..K-1] in
; registers, the frame part is T itself, stored two slots down as it
; moves), each pass adds y_i m and y_(i+1) m and takes T[i + L] and
; T[i + L + 1] as its new top digits. One pass loads each digit of m once
; for four products and moves the accumulator once, where two steps
; loaded it twice and moved twice: the loads, not the products, were what
; the reduction waited on (about 10 % of the 40-digit squaring, measured).
; Each y_i is computed from the exact running sum's weight i digit, which
; products of b's digits above i (here already in T) do not change mod
; 2^52: the result is the interleaved multiply's.
%macro GSQR 2
%push gsqr
%define %$L %1
%define %$K %2
%define %$NR 27                         ; a digits kept in registers
%define %$X zmm27                       ; a column's lo products, i even
%define %$X2 zmm28                      ; and its hi products
%define %$X3 zmm29                      ; lo products, i odd
%define %$X4 zmm30                      ; hi products, i odd
%define %$TMP zmm31
%define %$T(c) [rsp + 64 * (c)]         ; the square's digits
%define %$ZY0 zmm24                     ; phase 2: y of the pair's first step
%define %$ZY1 zmm25                     ; and of its second
%define %$ZK zmm26
%define %$ZT zmm27
%define %$ZMEM zmm28
%define %$MR(r) zmm %+ %eval(29 + (r) % 3) ; m_r, m_(r-1), m_(r-2) in turn
FUNC vg_amm52mb_sqr_ifma_%1
	push rbp
	mov rbp, rsp
	sub rsp, 128 * %$L + 64
	and rsp, -64
%assign %%k 0
%rep %$NR
%if %%k < %$L
	vmovdqu64 zmm %+ %%k, [rsi + 64 * %%k]
%endif
%assign %%k %%k + 1
%endrep
	; phase 1: column c of a^2
%assign %%c 0
%rep 2 * %$L
	vpxorq %$X, %$X, %$X
	vpxorq %$X2, %$X2, %$X2
	vpxorq %$X3, %$X3, %$X3
	vpxorq %$X4, %$X4, %$X4
%assign %%i 0
%rep %$L
%if %%i % 2 == 0
%define %%XLO %$X
%define %%XHI %$X2
%else
%define %%XLO %$X3
%define %%XHI %$X4
%endif
%assign %%j %%c - %%i
%if %%i < %%j && %%j < %$L
%if %%i < %$NR
	vpmadd52luq %%XLO, zmm %+ %%i, [rsi + 64 * %%j]
%else
	vmovdqu64 %$TMP, [rsi + 64 * %%i]
	vpmadd52luq %%XLO, %$TMP, [rsi + 64 * %%j]
%endif
%endif
%assign %%j %%c - 1 - %%i
%if %%i < %%j && %%j < %$L
%if %%i < %$NR
	vpmadd52huq %%XHI, zmm %+ %%i, [rsi + 64 * %%j]
%else
	vmovdqu64 %$TMP, [rsi + 64 * %%i]
	vpmadd52huq %%XHI, %$TMP, [rsi + 64 * %%j]
%endif
%endif
%assign %%i %%i + 1
%endrep
	vpaddq %$X, %$X, %$X2
	vpaddq %$X3, %$X3, %$X4
	vpaddq %$X, %$X, %$X3
	vpaddq %$X, %$X, %$X                     ; the cross products twice
%if %%c % 2 == 0
%assign %%d %%c / 2
%define %%OP vpmadd52luq
%else
%assign %%d (%%c - 1) / 2
%define %%OP vpmadd52huq
%endif
%if %%d < %$NR
	%%OP %$X, zmm %+ %%d, zmm %+ %%d
%else
	vmovdqu64 %$TMP, [rsi + 64 * %%d]
	%%OP %$X, %$TMP, %$TMP
%endif
	vmovdqa64 %$T(%%c), %$X
%assign %%c %%c + 1
%endrep
	; phase 2: reduce; A[0..K-1] from T, the rest is T in place
%assign %%p 0
%rep %$K
	vmovdqa64 zmm %+ %%p, %$T(%%p)
%assign %%p %%p + 1
%endrep
	vmovdqu64 %$ZK, [r8]
	lea r9, %$T(%$L)                        ; T[i + L], the next top digits
	mov eax, %$L / 2
align 32
%%step:
	; steps i and i + 1 of the reduction in one pass over m (L is
	; even): y0 (step i) from A[0]; A[0]'s carry and the products of
	; weight 1 into A[1], which makes A[1] the exact running sum step
	; i + 1 takes y1 from; then A[1]'s carry, and every other product
	; of both steps, target by target: A[q] += hi(m_(q-1) y0) + lo(m_q
	; y0) + hi(m_(q-2) y1) + lo(m_(q-1) y1), where A[L] and A[L + 1] are
	; T[i + L] and T[i + L + 1]. Each m digit is loaded once and kept for
	; the three targets that use it. Then the accumulator moves two digits
	; down. Every product the two single steps would add is added once,
	; so the sums, the y and the result are theirs.
	vpxorq %$ZY0, %$ZY0, %$ZY0
	vpmadd52luq %$ZY0, zmm0, %$ZK           ; y0 = A[0] k0 mod 2^52
	vmovdqu64 %$MR(0), [rcx]
	vmovdqu64 %$MR(1), [rcx + 64]
	vpmadd52luq zmm0, %$ZY0, %$MR(0)
	vpmadd52huq zmm1, %$ZY0, %$MR(0)
	vpmadd52luq zmm1, %$ZY0, %$MR(1)
	vpsrlq %$ZT, zmm0, 52
	vpaddq zmm1, zmm1, %$ZT
	vpxorq %$ZY1, %$ZY1, %$ZY1
	vpmadd52luq %$ZY1, zmm1, %$ZK           ; y1 = A[1] k0 mod 2^52
	vpmadd52luq zmm1, %$ZY1, %$MR(0)
	vpsrlq %$ZT, zmm1, 52
	vpaddq zmm2, zmm2, %$ZT
%assign %%q 2
%rep %$L
%if %%q == %$K
	; A[2..K-1] are complete: move them down before A[K] and A[K + 1]
	; take their places
%assign %%p 0
%rep %$K - 2
	vmovdqa64 zmm %+ %%p, zmm %+ %eval(%%p + 2)
%assign %%p %%p + 1
%endrep
%endif
%if %%q < %$K
%define %%X zmm %+ %%q
%elif %%q < %$K + 2
%define %%X zmm %+ %eval(%%q - 2)
	vmovdqa64 %%X, %$T(%%q)
%else
%define %%X %$ZMEM
%if %%q < %$L
	vmovdqa64 %%X, %$T(%%q)
%else
	vmovdqa64 %%X, [r9 + 64 * (%%q - %$L)]  ; A[L], A[L + 1]: T[i + L], T[i + L + 1]
%endif
%endif
%if %%q < %$L
	vmovdqu64 %$MR(%%q), [rcx + 64 * %%q]
	vpmadd52luq %%X, %$ZY0, %$MR(%%q)
%endif
%if %%q - 1 < %$L
	vpmadd52huq %%X, %$ZY0, %$MR(%%q - 1)
	vpmadd52luq %%X, %$ZY1, %$MR(%%q - 1)
%endif
	vpmadd52huq %%X, %$ZY1, %$MR(%%q - 2)
%if %%q >= %$K + 2
	vmovdqa64 %$T(%%q - 2), %%X
%endif
%assign %%q %%q + 1
%endrep
	add r9, 128
	dec eax
	jnz %%step
	; the carry pass, as GMUL's
%assign %%j 0
%rep %$L
%if %%j < %$K
%define %%Y zmm %+ %%j
%else
%define %%Y %$ZMEM
	vmovdqa64 %$ZMEM, %$T(%%j)
%endif
%if %%j > 0
	vpaddq %%Y, %%Y, %$ZT
%endif
	vpsrlq %$ZT, %%Y, 52
	vpandq %%Y, %%Y, [rel m52]{1to8}
	vmovdqu64 [rdi + 64 * %%j], %%Y
%assign %%j %%j + 1
%endrep
	WIPE 32
%assign %%p 0
%rep 2 * %$L
	vmovdqa64 [rsp + 64 * %%p], zmm0
%assign %%p %%p + 1
%endrep
	mov rsp, rbp
	pop rbp
	ret
ENDFUNC vg_amm52mb_sqr_ifma_%1
%pop
%endmacro

GSQR 30, 24
GSQR 40, 24

%define S(j) zmm %+ j                   ; sel digit j of a chunk: zmm0..zmm23
%define ZIDX zmm30                      ; idx of each lane
%define ZCNT zmm31                      ; the entry number, in every lane
%define ZONE zmm29
%define ZMSK zmm28

; GSELECT L: vg_rsa52mb_select_ifma_L. At most 24 digits are kept in
; registers at a time: larger L scans the table once per chunk of digits,
; each scan reading its digits of every entry (together every byte of
; every entry).
%define SCHUNK 24
%macro GSELECT 1
FUNC vg_rsa52mb_select_ifma_%1
	vmovdqu64 ZIDX, [rdx]
	vpbroadcastq ZONE, [rel one]
%assign %%c0 0
%rep (%1 + SCHUNK - 1) / SCHUNK
%assign %%n %1 - %%c0
%if %%n > SCHUNK
%assign %%n SCHUNK
%endif
	vpxorq ZCNT, ZCNT, ZCNT
%assign %%j 0
%rep %%n
	vpxorq S(%%j), S(%%j), S(%%j)
%assign %%j %%j + 1
%endrep
	mov r9, rsi
	mov eax, TBL
align 32
.chunk%[%%c0]:
	vpcmpeqq k1, ZIDX, ZCNT
	vpmovm2q ZMSK, k1                       ; all-ones in the lanes that keep it
%assign %%j 0
%rep %%n
	vpternlogq S(%%j), ZMSK, [r9 + 64 * (%%c0 + %%j)], 0xf8 ; S | (mask & entry)
%assign %%j %%j + 1
%endrep
	vpaddq ZCNT, ZCNT, ZONE
	add r9, 64 * %1
	dec eax
	jnz .chunk%[%%c0]
%assign %%j 0
%rep %%n
	vmovdqu64 [rdi + 64 * (%%c0 + %%j)], S(%%j)
%assign %%j %%j + 1
%endrep
%assign %%c0 %%c0 + SCHUNK
%endrep
	WIPE 32
	ret
ENDFUNC vg_rsa52mb_select_ifma_%1
%endmacro

GSELECT 20
GSELECT 30
GSELECT 40

RODATA
align 8
m52: dq (1 << 52) - 1
one: dq 1
