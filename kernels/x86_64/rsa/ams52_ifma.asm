; ams52_ifma.asm: "almost Montgomery" squaring in radix 2^52 with AVX-512
; IFMA, two independent ones per call (the two CRT halves), for the
; squarings of the ifma tier's paired exponentiation. The square's cross
; products are computed once and doubled, plus the diagonal, then the
; Montgomery reduction: about 15 % fewer multiply-adds than
; vg_amm52x2_ifma_L with b = a, measured about 5 % faster at L = 40.
; Secret: the operands, both moduli and both k0. No branch and no address
; depends on them: the only branch is the reduction's digit counter
; (public), and every address is an argument pointer or the stack plus a
; constant.
;
; void vg_ams52x2_ifma_L(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                        const uint64_t *m, const uint64_t k0[2])
; for L = 40 digits (the macro takes any L up to 40); b is ignored (the
; vg_amm52x2_fn type, so the exponentiation can call either). As the
; contract of vg_amm52x2_ifma_L with b = a: half h at qword offset
; h * 8Z, digits < 2^52 (digits L..8Z-1 zero), a < 2 m_h,
; 4 m_h < 2^(52 L); r = a^2 2^(-52 L) mod m_h "almost" (r < 2 m_h),
; normalised; r may alias a.
;
; Method. Product: T = a^2 = 2 X + D, X = sum over j > i of a_i a_j 2^(52
; (i+j)), D the diagonal, one half after the other. X is kept as 2Z
; vector registers of column sums (lane = digit position, unnormalised).
; Row i adds a_i times a shifted up by i digits; rows are taken by r = i
; mod 8, so one copy of a shifted by r lanes (and one by r + 1, for the
; high halves) serves every row of that r, the copies kept in registers
; and each made from the previous by valignq. Lanes j <= i are masked off
; (k1..k7: lanes > t) and only the registers that can hold j > i are
; touched: the triangle. D's low and high halves are interleaved into
; digit order by vpermi2q.
; Reduction: (T + Y m) / 2^(52 L) = (T_lo + Y m) / 2^(52 L) + T_hi, the
; digit-serial loop of amm52_ifma.asm without the a b products, starting
; from T_lo, then T_hi added and the digits normalised. Every lane stays
; below 2^62 (at most ~8 L products of 2^52 each).

%include "x86_64/common/config.asm"
%include "x86_64/rsa/rsa52_macros.asm"

RODATA
align 64
; vpermi2q indices: (lo, hi) of digits 0..3 / 4..7 into positions 0..7
perm_lo: dq 0, 8, 1, 9, 2, 10, 3, 11
perm_hi: dq 4, 12, 5, 13, 6, 14, 7, 15

%define OFF(h) (64 * Z * (h))             ; byte offset of half h in r, a, m
; stack frame: per half T (2Z registers)
%define TBUF(h) (2 * Z * 64 * (h))
%define FRAME (4 * Z * 64)

; product phase (one half at a time): X(K) = zmm K, K = 0..2Z-1; the
; shifted copies C(s, q) = zmm(12 + 6 s + q), q = 0..Z, s = r mod 2 (the
; copy shifted by r lanes; the other set holds r + 1); broadcast zmm24
%define X(k) zmm %+ %eval(k)
%define CN(s, q) (12 + 6 * (s) + (q))
%define C(s, q) zmm %+ %eval(CN(s, q))

; reduction phase, as amm52_ifma.asm's paired register map (no a)
%macro REGMAP 0
%if Z <= 4
%define ACCN(h, k) (4 * (h) + (k))
%define MN(h, k) (16 + 4 * (h) + (k))
%else
%define ACCN(h, k) (5 * (h) + (k))
%define MN(h, k) (10 + 5 * (h) + (k))
%endif
%endmacro
%define ACC(h, k) zmm %+ %eval(ACCN(h, k))
%define ACCX(h) xmm %+ %eval(ACCN(h, 0))

; PMADD op, K, copy register, t: X(K) op= a_i * the copy register, lanes
; > t only when t >= 0 (mask k(t+1)).
%macro PMADD 4
%if %4 >= 0
%assign %%mk %4 + 1
	%1 X(%2) {k%[%%mk]}, zmm24, %3
%else
	%1 X(%2), zmm24, %3
%endif
%endmacro

; ROW h, i: X += a_i (a_j for j > i) at positions i + j (low halves) and
; i + j + 1 (high halves). i = 8b + r; lane l of register K is position
; 8K + l; the copy shifted by r holds digit 8q + l - r in lane l of its
; register q, so register K takes copy register q = K - b (r + 1 for the
; high halves), and lane l holds j > i iff l > 2i - 8K (+ 1).
%macro ROW 2
%assign %%b (%2) / 8
%assign %%r (%2) % 8
	vpbroadcastq zmm24, [rsi + 8 * (%2) + OFF(%1)]
%assign K (2 * (%2) + 1) / 8
%rep ((%2) + L - 1) / 8 - K + 1
%assign t 2 * (%2) - 8 * K
	PMADD vpmadd52luq, K, C(%%r % 2, K - %%b), t
%assign K K + 1
%endrep
%assign K (2 * (%2) + 2) / 8
%rep ((%2) + L) / 8 - K + 1
%assign t 2 * (%2) + 1 - 8 * K
	PMADD vpmadd52huq, K, C((%%r + 1) % 2, K - %%b), t
%assign K K + 1
%endrep
%endmacro

; NEXTCOPY r: the copy shifted by r + 1 from the one shifted by r (r < 7),
; or for r = 7 the copy shifted by 8 (a one register up) from a.
%macro NEXTCOPY 1
%if %1 < 7
%assign %%s %1 % 2
%assign %%d (%1 + 1) % 2
%assign q Z
%rep Z
	valignq C(%%d, q), C(%%s, q), C(%%s, q - 1), 7
%assign q q - 1
%endrep
	valignq C(%%d, 0), C(%%s, 0), zmm31, 7
%else
	; r = 7 uses set 1 for its own rows and set 0 for the copy shifted by
	; 8: a moved up one register (reloaded: set 0 held the shift by 6)
	vmovdqa64 C(0, 0), zmm31
%assign q 1
%rep Z - 1
	vmovdqu64 C(0, q), [rsi + 64 * (q - 1) + OFF(HH)]
%assign q q + 1
%endrep
	mov eax, (1 << LASTN) - 1
	kmovb k1, eax
	vmovdqu64 C(0, Z) {k1}{z}, [rsi + 64 * (Z - 1) + OFF(HH)]
	mov eax, 0xfe
	kmovb k1, eax
%endif
%endmacro

; MADDM op, h, k, bcast: acc (h, k) op= bcast * m register k of half h (ymm
; for a last register of 4 digits, as in amm52_ifma.asm).
%macro MADDM 4
%if HALFLAST && (%3) == Z - 1
	%1 ymm %+ %eval(ACCN(%2, %3)), ymm %+ %4, ymm %+ %eval(MN(%2, %3))
%else
	%1 zmm %+ %eval(ACCN(%2, %3)), zmm %+ %4, zmm %+ %eval(MN(%2, %3))
%endif
%endmacro

; One reduction step of half h: acc = (acc + y m) / 2^52, y = acc_0 k0 mod
; 2^52. Lanes 0 and 1 are tracked exactly in scalars (s = lane 0, n = lane
; 1): the next s needs only n and this step's y, and the next n is lane 2
; read from the vector at the start of this step (written by the previous
; steps' vector work) plus this step's y m_2 and y m_1 parts, so the
; vector latency stays off the y-to-y chain (a step is latency bound here,
; having half the vector work of a multiply step).
; %1 = h, %2 = s, %3 = n, %4 = bcast register number, %5 = carry register
; number, %6 = extract register number. Temps: rax, rdx, r9, r11, r14.
; r10 = 52.
%macro RDIGIT 6
	vextracti64x2 xmm%6, ACC(%1, 0), 1
	vmovq r9, xmm%6                        ; lane 2 before this step
	mov rdx, %2
	imul rdx, [r8 + 8 * (%1)]
	bzhi rdx, rdx, r10                     ; y = s k0 mod 2^52
	vpbroadcastq zmm%4, rdx
%assign k 0
%rep Z
	MADDM vpmadd52luq, %1, k, %4
%assign k k + 1
%endrep
	mulx r11, rax, [rcx + OFF(%1)]         ; m_0 y
	bzhi r14, rax, r10
	add %2, r14
	shr %2, 52                             ; carry out of lane 0
	vmovq xmm%5, %2
	shrd rax, r11, 52                      ; hi52(m_0 y), lands in lane 1
	add %2, rax
	add %2, %3
	mulx r11, rax, [rcx + 8 + OFF(%1)]     ; m_1 y
	bzhi r14, rax, r10
	add %2, r14                            ; s = the new lane 0
	shrd rax, r11, 52                      ; hi52(m_1 y), lands in lane 2
	add r9, rax
	mov r14, [rcx + 16 + OFF(%1)]
	imul r14, rdx
	bzhi r14, r14, r10                     ; lo52(m_2 y)
	add r9, r14
	mov %3, r9                             ; n = the new lane 1
%assign k 0
%rep Z - 1
	valignq ACC(%1, k), ACC(%1, k + 1), ACC(%1, k), 1
%assign k k + 1
%endrep
	valignq ACC(%1, Z - 1), zmm31, ACC(%1, Z - 1), 1
	vpaddq ACC(%1, 0), ACC(%1, 0), zmm%5
%assign k 0
%rep Z
	MADDM vpmadd52huq, %1, k, %4
%assign k k + 1
%endrep
%endmacro

%macro AMS52 1
%assign L %1
%assign Z (L + 7) / 8
%assign HALFLAST (L % 8 == 4)
%assign LASTN L - 8 * (Z - 1)             ; digits in the last register
REGMAP
FUNC vg_ams52x2_ifma_%1
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	sub rsp, FRAME
	mov r10d, 52
	; masks: k(t+1) = lanes > t, t = 0..6
	mov eax, 0xfe
	kmovb k1, eax
	mov eax, 0xfc
	kmovb k2, eax
	mov eax, 0xf8
	kmovb k3, eax
	mov eax, 0xf0
	kmovb k4, eax
	mov eax, 0xe0
	kmovb k5, eax
	mov eax, 0xc0
	kmovb k6, eax
	mov eax, 0x80
	kmovb k7, eax
	vpxorq zmm31, zmm31, zmm31
%assign HH 0
%rep 2
	; kmask k1 = the last register's digits while loading a
	mov eax, (1 << LASTN) - 1
	kmovb k1, eax
%assign k 0
%rep 2 * Z
	vpxorq X(k), X(k), X(k)
%assign k k + 1
%endrep
	; the copy shifted by 0 (a, digits >= L cleared whatever the input)
%assign q 0
%rep Z - 1
	vmovdqu64 C(0, q), [rsi + 64 * q + OFF(HH)]
%assign q q + 1
%endrep
	vmovdqu64 C(0, Z - 1) {k1}{z}, [rsi + 64 * (Z - 1) + OFF(HH)]
	vmovdqa64 C(0, Z), zmm31
%assign r 0
%rep 8
	NEXTCOPY r
%if r == 0
	mov eax, 0xfe
	kmovb k1, eax                          ; back to lanes > 0
%endif
%assign i r
%rep (L - 1 - r + 7) / 8                    ; rows r, r + 8, ... below L - 1
	ROW HH, i
%assign i i + 8
%endrep
%assign r r + 1
%endrep
	; T = 2 X + D
	mov eax, (1 << LASTN) - 1
	kmovb k1, eax
	vmovdqu64 zmm30, [perm_lo]
%assign k 0
%rep Z
%if k < Z - 1
	vmovdqu64 zmm26, [rsi + 64 * k + OFF(HH)]
%else
	vmovdqu64 zmm26 {k1}{z}, [rsi + 64 * k + OFF(HH)]
%endif
	vpxorq zmm27, zmm27, zmm27
	vpxorq zmm28, zmm28, zmm28
	vpmadd52luq zmm27, zmm26, zmm26        ; lo(a_j^2), lane j
	vpmadd52huq zmm28, zmm26, zmm26        ; hi(a_j^2)
	vmovdqa64 zmm29, zmm30
	vpermi2q zmm29, zmm27, zmm28           ; positions 16k .. 16k+7
	vpaddq X(2 * k), X(2 * k), X(2 * k)
	vpaddq X(2 * k), X(2 * k), zmm29
	vmovdqu64 [rsp + TBUF(HH) + 128 * k], X(2 * k)
	vmovdqu64 zmm29, [perm_hi]
	vpermi2q zmm29, zmm27, zmm28           ; positions 16k+8 .. 16k+15
	vpaddq X(2 * k + 1), X(2 * k + 1), X(2 * k + 1)
	vpaddq X(2 * k + 1), X(2 * k + 1), zmm29
	vmovdqu64 [rsp + TBUF(HH) + 128 * k + 64], X(2 * k + 1)
%assign k k + 1
%endrep
%assign HH HH + 1
%endrep
	; reduction: acc = T_lo (digits >= L cleared), m into registers
	vpxorq zmm31, zmm31, zmm31
	mov eax, (1 << LASTN) - 1
	kmovb k1, eax
%assign h 0
%rep 2
%assign k 0
%rep Z - 1
	vmovdqu64 ACC(h, k), [rsp + TBUF(h) + 64 * k]
%assign k k + 1
%endrep
	vmovdqu64 ACC(h, Z - 1) {k1}{z}, [rsp + TBUF(h) + 64 * (Z - 1)]
%assign k 0
%rep Z
	vmovdqu64 zmm %+ %eval(MN(h, k)), [rcx + 64 * k + OFF(h)]
%assign k k + 1
%endrep
%assign h h + 1
%endrep
	mov r12, [rsp + TBUF(0)]               ; s, n: lanes 0, 1 of each half
	mov r15, [rsp + TBUF(0) + 8]
	mov r13, [rsp + TBUF(1)]
	mov rbx, [rsp + TBUF(1) + 8]
	mov ebp, L
%%digit:
	RDIGIT 0, r12, r15, 24, 28, 30
	RDIGIT 1, r13, rbx, 26, 29, 30
	dec ebp
	jnz %%digit

	; + T_hi (digits L .. 2L-1, zero above), store, normalise
%assign k 0
%rep Z
	vpaddq ACC(0, k), ACC(0, k), [rsp + TBUF(0) + 8 * L + 64 * k]
	vmovdqu64 [rdi + 64 * k], ACC(0, k)
	vpaddq ACC(1, k), ACC(1, k), [rsp + TBUF(1) + 8 * L + 64 * k]
	vmovdqu64 [rdi + 64 * k + OFF(1)], ACC(1, k)
%assign k k + 1
%endrep
	NORM52 2, OFF(1)
	; The registers and the frame held secrets: clear them.
%assign k 0
%rep 32
	vpxorq zmm %+ k, zmm %+ k, zmm %+ k
%assign k k + 1
%endrep
%assign k 0
%rep FRAME / 64
	vmovdqu64 [rsp + 64 * k], zmm0
%assign k k + 1
%endrep
	vzeroupper
	add rsp, FRAME
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret
ENDFUNC vg_ams52x2_ifma_%1
%endmacro

; Only L = 40 (RSA-4096): at L = 20 and 30 the paired multiply, whose
; step latency is split over two accumulators there, measured faster than
; this squaring; at L = 40 it has no room for that and this squaring is
; about 5 % faster than it.
AMS52 40
