; amm52_ifma.asm: "almost Montgomery" multiplication in radix 2^52 with
; AVX-512 IFMA (vpmadd52luq/huq): two independent ones interleaved (x2), so
; the two CRT halves of an RSA private operation hide each other's
; latency, and single ones (x1) for the public operation.
; Secret: every operand, both moduli and both k0. No branch and no address
; depends on them: the only branch is the digit counter (public), and every
; address is an argument pointer plus a constant or the counter.
;
; void vg_amm52x2_ifma_L(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                        const uint64_t *m, const uint64_t k0[2])
; for L = 20, 30, 40 digits (1024-, 1536-, 2048-bit moduli), Z = ceil(L/8)
; zmm registers per number. Each of r, a, b, m holds two numbers, half h at
; qword offset h * 8Z, as 8Z digits of 52 bits (digits L..8Z-1 zero).
; Half h: r = a b 2^(-52 L) mod m_h "almost": with a, b < 2 m_h and
; 4 m_h < 2^(52 L), r < 2 m_h (no final subtraction). k0[h] = -m_h^-1 mod
; 2^52. r may alias a or b (written only after the last read).
;
; void vg_amm52x1_ifma_L(same arguments) for L = 40, 60, 80 (2048-, 3072-,
; 4096-bit moduli): a single number each, k0[0] only.

%include "x86_64/common/config.asm"
%include "x86_64/rsa/rsa52_macros.asm"

; Register map, single multiply (HALVES = 1): accumulators zmm0..Z-1, m
; the next Z, a the next Z up to zmm23 (L = 80: the first 4 registers, the
; rest from memory; L = 40: the second accumulators next, see SPLIT).
; Paired (HALVES = 2), Z <= 4 (L = 20, 30): accumulators zmm0-7, a
; zmm8-15, m zmm16-23 (4 per half; L = 30: zmm8-15 hold the second
; accumulators and a is read from memory, see SPLIT). Z = 5 (L = 40):
; accumulators zmm0-9, m zmm10-19, a's first two registers per half
; zmm20-23 and the rest read from memory (no room left). Keeping operands
; in registers saves vector loads where those bound the loop.
; Broadcasts zmm24-27, carries zmm28-29, zero zmm31.
%macro REGMAP 0
%if HALVES == 1
%define ACCN(h, k) (k)
%define MN(h, k) (Z + (k))
%define AN(h, k) (2 * Z + (k))
%if Z <= 8
%assign A_REGS 1                                ; 1: all; n > 1: the first n
%else
%assign A_REGS 24 - 2 * Z
%endif
%elif Z <= 4
%define ACCN(h, k) (4 * (h) + (k))
%define AN(h, k) (8 + 4 * (h) + (k))
%define MN(h, k) (16 + 4 * (h) + (k))
%assign A_REGS 1
%else
%define ACCN(h, k) (5 * (h) + (k))
%define MN(h, k) (10 + 5 * (h) + (k))
%define AN(h, k) (20 + 2 * (h) + (k))
%assign A_REGS 2
%endif
%endmacro

%define ACC(h, k) zmm %+ %eval(ACCN(h, k))
%define ACC2(h, k) zmm %+ %eval(ACC2N(h, k))
%define ACCX(h) xmm %+ %eval(ACCN(h, 0))

; MADD op, h, k, bcast register number, which (0: a, 1: m):
; acc (h, k) op= bcast * a or m register k of half h, on ymm for the last
; register when it holds only 4 digits (L = 20: 2.5 zmm), so no multiplier
; work is spent on the 4 empty lanes.
%macro MADD 5
%if SPLIT && %5 == 1
%assign %%d ACC2N(%2, %3)                  ; the second accumulator
%else
%assign %%d ACCN(%2, %3)
%endif
%if %5 == 1
%assign %%s MN(%2, %3)
%elif A_REGS == 1 || (%3) < A_REGS
%assign %%s AN(%2, %3)
%else
%assign %%s -1
%endif
%if HALFLAST && (%3) == Z - 1
%if %%s >= 0
	%1 ymm %+ %%d, ymm %+ %4, ymm %+ %%s
%else
	%1 ymm %+ %%d, ymm %+ %4, [rsi + 64 * (%3) + OFF(%2)]
%endif
%else
%if %%s >= 0
	%1 zmm %+ %%d, zmm %+ %4, zmm %+ %%s
%else
	%1 zmm %+ %%d, zmm %+ %4, [rsi + 64 * (%3) + OFF(%2)]
%endif
%endif
%endmacro

; One digit step of half h: acc = (acc + a b_i + y m) / 2^52 with
; y = (acc_0 + a_0 b_i) k0 mod 2^52. Lane 0 of acc is tracked exactly in a
; scalar register s (the vector's own lane 0 is never read back): s for
; the next step is lane 1 now plus every product that lands there, so the
; next y does not wait for this step's vector work (the latency chain
; per step is the scalar one, about a dozen cycles).
; %1 = h, %2 = s; bcast register numbers %3 (b_i), %4 (y); carry
; register number %5. Temps: rax, rdx, r9, r11, r14. r10 = 52.
%define OFF(h) (8 * (h) * 8 * Z)
%macro DIGIT 5
	mov rdx, [rbx + OFF(%1)]               ; b_i
	vpbroadcastq zmm%3, rdx
	vpextrq r9, ACCX(%1), 1                ; lane 1 before this step
%if SPLIT
	vpextrq r14, xmm %+ %eval(ACC2N(%1, 0)), 1 ; the second accumulator's
	add r9, r14
%endif
%assign k 0
%rep Z
	MADD vpmadd52luq, %1, k, %3, 0
%assign k k + 1
%endrep
	mulx r11, rax, [rsi + OFF(%1)]         ; a_0 b_i
	bzhi r14, rax, r10
	add %2, r14                            ; t = s + lo52(a_0 b_i)
	shrd rax, r11, 52                      ; hi52(a_0 b_i), lands in lane 1
	add r9, rax
	mov r14, [rsi + 8 + OFF(%1)]
	imul r14, rdx
	bzhi r14, r14, r10                     ; lo52(a_1 b_i)
	add r9, r14
	mov rdx, %2
	imul rdx, [r8 + 8 * (%1)]
	bzhi rdx, rdx, r10                     ; y = t k0 mod 2^52
	vpbroadcastq zmm%4, rdx
%assign k 0
%rep Z
	MADD vpmadd52luq, %1, k, %4, 1
%assign k k + 1
%endrep
	mulx r11, rax, [rcx + OFF(%1)]         ; m_0 y
	bzhi r14, rax, r10
	add %2, r14
	shr %2, 52                             ; carry out of lane 0
	vmovq xmm%5, %2
	shrd rax, r11, 52                      ; hi52(m_0 y)
	add r9, rax
	mov r14, [rcx + 8 + OFF(%1)]
	imul r14, rdx
	bzhi r14, r14, r10                     ; lo52(m_1 y)
	add r9, r14
	add %2, r9                             ; s = the new lane 0
	; drop lane 0 (now a multiple of 2^52): shift every lane down one
%assign k 0
%rep Z - 1
	valignq ACC(%1, k), ACC(%1, k + 1), ACC(%1, k), 1
%assign k k + 1
%endrep
	valignq ACC(%1, Z - 1), zmm31, ACC(%1, Z - 1), 1
	vpaddq ACC(%1, 0), ACC(%1, 0), zmm%5
%if SPLIT
%assign k 0
%rep Z - 1
	valignq ACC2(%1, k), ACC2(%1, k + 1), ACC2(%1, k), 1
%assign k k + 1
%endrep
	valignq ACC2(%1, Z - 1), zmm31, ACC2(%1, Z - 1), 1
%endif
	; high halves land one digit up, i.e. at the same lane after the shift
%assign k 0
%rep Z
	MADD vpmadd52huq, %1, k, %3, 0
	MADD vpmadd52huq, %1, k, %4, 1
%assign k k + 1
%endrep
%endmacro

%macro AMM52 2
%assign L %1
%assign HALVES %2
%assign Z (L + 7) / 8
%assign HALFLAST (L % 8 == 4)
; SPLIT: the y m products go to a second accumulator ACC2, so each
; accumulator register takes two dependent multiply-adds per step instead
; of four, where that latency chain bounds a step (the single multiply at
; L = 40, the paired ones at L = 20 and 30). The two are added before
; normalising. ACC2 sits in registers the map leaves free: zmm(3Z + k) for
; the single one, the fourth register of each group of four for the
; paired L = 20, and a's registers for the paired L = 30 (a is then read
; from memory). The paired L = 40 has no room for it.
%assign SPLIT (HALVES == 1 && Z == 5) || (HALVES == 2 && Z <= 4)
%if HALVES == 1
%define ACC2N(h, k) (3 * Z + (k))
%elif Z == 3
%define ACC2N(h, k) (4 * (3 * (h) + (k)) + 3)
%else
%define ACC2N(h, k) (8 + 4 * (h) + (k))    ; a's registers: a from memory
%endif
REGMAP
%if HALVES == 2 && Z == 4
%assign A_REGS 0                                ; none: zmm8-15 hold ACC2
%endif
FUNC vg_amm52x%2_ifma_%1
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	mov rbx, rdx                           ; b (rdx is mulx's operand)
	xor r12d, r12d                         ; s of each half: lane 0 = 0
	xor r13d, r13d
	mov r10d, 52                           ; bzhi index: keep 52 bits
	vpxorq zmm31, zmm31, zmm31
%assign k 0
%rep Z
	vpxorq ACC(0, k), ACC(0, k), ACC(0, k)
	vmovdqu64 zmm %+ %eval(MN(0, k)), [rcx + 64 * k]
%if A_REGS == 1 || k < A_REGS
	vmovdqu64 zmm %+ %eval(AN(0, k)), [rsi + 64 * k]
%endif
%if HALVES == 2
	vpxorq ACC(1, k), ACC(1, k), ACC(1, k)
	vmovdqu64 zmm %+ %eval(MN(1, k)), [rcx + 64 * k + OFF(1)]
%if A_REGS == 1 || k < A_REGS
	vmovdqu64 zmm %+ %eval(AN(1, k)), [rsi + 64 * k + OFF(1)]
%endif
%endif
%assign k k + 1
%endrep
%if SPLIT
%assign k 0
%rep Z
	vpxorq ACC2(0, k), ACC2(0, k), ACC2(0, k)
%if HALVES == 2
	vpxorq ACC2(1, k), ACC2(1, k), ACC2(1, k)
%endif
%assign k k + 1
%endrep
%endif
	lea rbp, [rbx + 8 * L]                 ; end of half 0's digits of b
%%digit:
	DIGIT 0, r12, 24, 25, 28
%if HALVES == 2
	DIGIT 1, r13, 26, 27, 29
%endif
	add rbx, 8
	cmp rbx, rbp
	jne %%digit

	; Normalise: store the lanes, then carry each digit's bits above 52
	; into the next (L dependent steps per half, interleaved).
%if SPLIT
%assign k 0
%rep Z
	vpaddq ACC(0, k), ACC(0, k), ACC2(0, k)
%if HALVES == 2
	vpaddq ACC(1, k), ACC(1, k), ACC2(1, k)
%endif
%assign k k + 1
%endrep
%endif
%assign k 0
%rep Z
	vmovdqu64 [rdi + 64 * k], ACC(0, k)
%if HALVES == 2
	vmovdqu64 [rdi + 64 * k + 64 * Z], ACC(1, k)
%endif
%assign k k + 1
%endrep
	NORM52 HALVES, 64 * Z
	; The registers held secrets (operands, moduli, sums): clear them.
%assign k 0
%rep 31
	vpxorq zmm %+ k, zmm %+ k, zmm %+ k
%assign k k + 1
%endrep
	vzeroupper
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret
ENDFUNC vg_amm52x%2_ifma_%1
%endmacro

; The paired multiplies of the CRT halves of RSA-2048/3072/4096, and
; single ones for the moduli of the public operation (L = 40, 60, 80).
AMM52 20, 2
AMM52 30, 2
AMM52 40, 2
AMM52 40, 1
AMM52 60, 1
AMM52 80, 1
