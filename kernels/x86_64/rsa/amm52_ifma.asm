; amm52_ifma.asm: "almost Montgomery" multiplication in radix 2^52 with
; AVX-512 IFMA (vpmadd52luq/huq): two independent ones interleaved (x2), so
; the two CRT halves of an RSA private operation hide each other's
; latency, and single ones (x1) for the public operation.
; Secret: every operand, both moduli and both k0. No branch and no address
; depends on them: the only branch is the digit counter (public), and every
; address is an argument pointer or the stack plus a constant or the
; counter.
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
;
; void vg_amm52x2w_ifma_L(uint64_t *acc, const uint64_t *sel,
;                         const uint64_t *m, const uint64_t k0[2], size_t nsq)
; for L = 20, 30, 40: one window of the paired exponentiation, nsq
; (public) squarings acc = acc acc, then acc = acc sel, looped in one call
; (m stays in registers, the frame is set up once). The multiply is the
; x2 multiply above; at 30 and 40 digits the squarings are its digit loop
; with each cross product computed once (see "The squaring" below; 0.97
; and 0.88-0.94 of the multiply's time with b = a), bit for bit the
; multiply's result; at 20 digits, where that squaring measured slower on
; an idle core, the multiply with b = acc.
;
; Method: digit-serial, the accumulator acc (Z registers, lane = digit)
; shifted down one lane per digit of b. Per digit b_i and half:
;   acc += lo(a b_i) + lo(m y)        (y = (acc_0 + a_0 b_i) k0 mod 2^52)
;   acc = acc / 2^52                  (valignq: lane 0 is now 0 mod 2^52)
;   acc += H, H = hi(a b_i) + hi(m y) (the high halves, one digit up)
; What bounds a step on Zen 4 is the chain of dependent vector operations
; into each accumulator register and the vector operation count (IFMA
; and valignq share a pipe), so:
;  - the high halves go to H, zeroed each step and added after the shift:
;    each accumulator register sees two multiply-adds, a shift and an add
;    per step (13 cycles) instead of four multiply-adds and a shift (20);
;  - lanes 0 and 1 of acc are tracked exactly in scalar registers (s, n):
;    y needs no vector result of this step, and the carry out of lane 0
;    (acc_0 + lo(a_0 b_i) + lo(m_0 y) is a multiple of 2^52) never enters
;    the vector: the final lanes 0 and 1 are written from s and n. n is
;    read from lane 1 at the start of each step (column i + 1 holds there
;    every product added to it and no carry: the carries stay in s and
;    n), then this step's products landing there are added; the next s is
;    n. So the vector work may lag the scalar by one step, and the scalar
;    side tracks no third lane (a step is bound by its instruction count
;    at 20 digits);
;  - where a (or m) fits in registers, b_i (or y, stored to the stack) is
;    an embedded broadcast of the multiply-add ({1to8}), which costs no
;    vector operation; otherwise b_i (y) is broadcast once and a (m) read
;    from memory.
; Scalar products use the digit shifted up by 12 bits (B' = b_i 2^12,
; Y' = y 2^12): mulx then gives hi52 as its high word and lo52 << 12 as
; its low word.

%include "x86_64/common/config.asm"
%include "x86_64/rsa/rsa52_macros.asm"

; Register map (the shape parameters of AMM52 below): the accumulators,
; then H (USEH), then the first AR registers of a and MR of m, then the
; broadcast registers of b_i (when AR < Z or BREG) and of y (MR < Z or
; YREG), then one extract temporary per half.
%macro REGMAP 0
%define ACCN(h, k) (Z * (h) + (k))
%assign %%next HALVES * Z
%if USEH
%xdefine HN(h, k) (%%next + Z * (h) + (k))
%assign %%next %%next + HALVES * Z
%endif
%xdefine AN(h, k) (%%next + AR * (h) + (k))
%assign %%next %%next + HALVES * AR
%xdefine MN(h, k) (%%next + MR * (h) + (k))
%assign %%next %%next + HALVES * MR
%if AR < Z || BREG
%xdefine BN(h) (%%next + (h))
%assign %%next %%next + HALVES
%endif
%if MR < Z || YREG
%xdefine YN(h) (%%next + (h))
%assign %%next %%next + HALVES
%endif
%xdefine XN(h) (%%next + (h))
%assign %%next %%next + HALVES
%if %%next > 32
%error too many registers
%endif
%endmacro

%define ACC(h, k) zmm %+ %eval(ACCN(h, k))
%define OFF(h) (8 * (h) * 8 * Z)
; stack frame: k0 2^12 and y of each half, the end of b's digits
%define K0S(h) [rsp + 8 * (h)]
%define YS(h) [rsp + 16 + 8 * (h)]
%define ENDB [rsp + 32]
; the window function's: sel and the operations left (both public)
%define SELS [rsp + 40]
%define CNT [rsp + 48]
%define FRAME 56
; The window functions' frame is 64-byte aligned (rsp saved in r8) and
; holds the squaring's scratch after the slots above: per half the
; preload P (one register), the digits of 2a (D2) and the diagonal terms
; (DLO, DHI), each in lane order.
%define PS(h) (64 + 64 * (h))
%define D2O(h) (192 + 64 * Z * (h))
%define DLO(h) (192 + 128 * Z + 64 * Z * (h))
%define DHI(h) (192 + 256 * Z + 64 * Z * (h))
%define WFRAME (192 + 384 * Z + 64)

; PROD op, h, k, which (0: a b_i, 1: m y): acc or H (h, k) op= the product
%macro PROD 5
%if HALFLAST && (%3) == Z - 1
%define %%W ymm
%define %%BC {1to4}
%else
%define %%W zmm
%define %%BC {1to8}
%endif
%if %5 == 0
%if (%3) < AR && BREG
	%1 %%W %+ %eval(%2), %%W %+ %eval(AN(%4, %3)), %%W %+ %eval(BN(%4))
%elif (%3) < AR
	%1 %%W %+ %eval(%2), %%W %+ %eval(AN(%4, %3)), [rbx + OFF(%4)]%%BC
%else
	%1 %%W %+ %eval(%2), %%W %+ %eval(BN(%4)), [rsi + 64 * (%3) + OFF(%4)]
%endif
%else
%if (%3) < MR && YREG
	%1 %%W %+ %eval(%2), %%W %+ %eval(MN(%4, %3)), %%W %+ %eval(YN(%4))
%elif (%3) < MR
	%1 %%W %+ %eval(%2), %%W %+ %eval(MN(%4, %3)), YS(%4)%%BC
%else
	%1 %%W %+ %eval(%2), %%W %+ %eval(YN(%4)), [rcx + 64 * (%3) + OFF(%4)]
%endif
%endif
%endmacro

; The m y part of a digit step of half %1 with s = %2, n = %3, shared by
; DIGIT and SQDIGIT: y from s, the m y low halves into the accumulator,
; m_0 y and m_1 y on the scalar side, then the shift down one lane.
%macro MY_STEP 3
	mov rdx, %2
	imul rdx, K0S(%1)                      ; Y' = (s k0 mod 2^52) 2^12
	lea r14, [%2 + r10]
	shr r14, 52                            ; the carry out of lane 0
	add %3, r14
	rorx rax, rdx, 12                      ; y (Y's low 12 bits are zero)
%if MR > 0 && YREG == 0
	mov YS(%1), rax
%endif
%if MR < Z || YREG
	vpbroadcastq zmm %+ %eval(YN(%1)), rax
%endif
%assign k 0
%rep Z
	PROD vpmadd52luq, ACCN(%1, k), k, %1, 1
%assign k k + 1
%endrep
	mulx r11, rax, [rcx + OFF(%1)]         ; m_0 y
	add %3, r11                            ; hi52, lane 1
	mulx r11, rax, [rcx + 8 + OFF(%1)]     ; m_1 y
	shr rax, 12
	add %3, rax                            ; lo52, lane 1
	mov %2, %3                             ; s = lane 1
	; drop lane 0: shift every lane down one (the top lane gets zero)
%assign k 0
%rep Z - 1
	valignq ACC(%1, k), ACC(%1, k + 1), ACC(%1, k), 1
%assign k k + 1
%endrep
%if HALFLAST
	valignq ymm %+ %eval(ACCN(%1, Z - 1)) {k2}{z}, ymm %+ %eval(ACCN(%1, Z - 1)), ymm %+ %eval(ACCN(%1, Z - 1)), 1
%else
	valignq ACC(%1, Z - 1) {k1}{z}, ACC(%1, Z - 1), ACC(%1, Z - 1), 1
%endif
%endmacro

; One digit step of half %1 with s = %2, n = %3 (see the method above).
; Temps: rax, rdx, r11, r14. r10 = 2^52 - 1.
%macro DIGIT 3
	vpextrq %3, xmm %+ %eval(ACCN(%1, 0)), 1 ; n: lane 1 before this step
%if AR < Z || BREG
	vpbroadcastq zmm %+ %eval(BN(%1)), [rbx + OFF(%1)]
%endif
%assign k 0
%rep Z
	PROD vpmadd52luq, ACCN(%1, k), k, %1, 0
%assign k k + 1
%endrep
	mov rdx, [rbx + OFF(%1)]
	shl rdx, 12                            ; B'
	mulx r11, rax, [rsi + OFF(%1)]         ; a_0 b_i
	shr rax, 12
	add %2, rax                            ; s + lo52(a_0 b_i)
	add %3, r11                            ; hi52(a_0 b_i), lane 1
	mulx r11, rax, [rsi + 8 + OFF(%1)]     ; a_1 b_i
	shr rax, 12
	add %3, rax                            ; lo52, lane 1
	MY_STEP %1, %2, %3
	; the high halves, landing one digit up: at the same lane now
%if USEH
%assign k 0
%rep Z
	vpxorq zmm %+ %eval(HN(%1, k)), zmm %+ %eval(HN(%1, k)), zmm %+ %eval(HN(%1, k))
	PROD vpmadd52huq, HN(%1, k), k, %1, 0
	PROD vpmadd52huq, HN(%1, k), k, %1, 1
%assign k k + 1
%endrep
%assign k 0
%rep Z
%if HALFLAST && k == Z - 1
	vpaddq ymm %+ %eval(ACCN(%1, k)), ymm %+ %eval(ACCN(%1, k)), ymm %+ %eval(HN(%1, k))
%else
	vpaddq ACC(%1, k), ACC(%1, k), zmm %+ %eval(HN(%1, k))
%endif
%assign k k + 1
%endrep
%else
%assign k 0
%rep Z
	PROD vpmadd52huq, ACCN(%1, k), k, %1, 0
	PROD vpmadd52huq, ACCN(%1, k), k, %1, 1
%assign k k + 1
%endrep
%endif
%endmacro

; ---- The squaring of the window functions (acc = acc acc) ----
; ("The squaring")
; The digit loop above with b = a computes every cross product a_i a_k
; twice (as a_i b_k and a_k b_i). Here, at digit step i, acc lane k holds
; column i + k, and the products of step i are a_i with a_k for k >= i
; only (those with k < i were counted at step k), so the registers whose
; lanes are all below i are skipped: the a-part of the step touches Z - r0
; registers, r0 = floor(i / 8), the boundary register r0 under a lane
; mask. The cross products count twice; doubling a_i can overflow 52 bits,
; so the multiplier is instead d_i, digit i of 2a (2 a_i mod 2^52 plus the
; bit c_{i-1} = bit 51 of a_{i-1} carried in): for each k,
;   sum_{i<k} d_i 2^(52 i) = 2 sum_{i<k} a_i 2^(52 i) - c_{k-1} 2^(52 k),
; so the cross products of a_k come out right when the diagonal term of
; a_k is a_k^2 + c_{k-1} a_k (DLO = lo52(a_k^2) + c_{k-1} a_k < 2^53,
; DHI = hi52(a_k^2)), added at step k to lane k (column 2k) and to H's
; lane k (column 2k + 1). Both are vectors in lane order computed once per
; squaring, as is 2a (d_L = c_{L-1} = 0: a < 2 m < 2^(52 L - 1)).
; Lanes 0..2 are the scalar side's (see DIGIT): with b = a, products reach
; them only at steps 0..2, from a_0..a_2 alone. So the scalar preload
; (SQPRE) puts the exact square of a_0 + a_1 2^52 + a_2 2^104 into the
; columns 0..5 (s, n, and lanes 2..5 of the accumulator) and the vector
; products skip lanes 0..2 at steps 0..2 (mask GT = lanes 3..7 there, no
; diagonal); from step 3 on the scalar side does the m y part alone.
; Column i is complete when it reaches lane 0 at step i (its pairs have
; min(j, k) <= i / 2 < i), so y_i is taken as in the multiply, the y are
; the same and the result is bit for bit the multiply's with b = a: the
; same almost-Montgomery bound (< 2 m_h for a < 2 m_h, 4 m_h < 2^(52 L)).
; Lanes stay below 2^64: a column receives at most 2 L a-part terms below
; 2^53 (lo, hi, DLO), 2 L m-part terms below 2^52 and a preload below
; 2^55: under 2^61 at L = 40.
; Masks: k3 (lanes > i mod 8 of register r0: the cross products), k4
; (lane i mod 8: the diagonal), set per step by SQBLOCK; they depend on
; the step only (public), and select lanes of data, never which
; instructions run.

; SQPROD op, reg, k, h, masked: acc or H (h, k) op= a_k d_i, under k3
; when masked (the boundary register)
%macro SQPROD 5
%if HALFLAST && (%3) == Z - 1
%define %%W ymm
%else
%define %%W zmm
%endif
%if %5
%define %%M {k3}
%else
%define %%M
%endif
%if (%3) < AR
	%1 %%W %+ %eval(%2) %+ %%M, %%W %+ %eval(AN(%4, %3)), %%W %+ %eval(BN(%4))
%else
	%1 %%W %+ %eval(%2) %+ %%M, %%W %+ %eval(BN(%4)), [rsi + 64 * (%3) + OFF(%4)]
%endif
%endmacro

; One squaring step of half %1 with s = %2, n = %3, boundary register %4
; (DIGIT without the a-part on the scalar side). rbx = the frame's D2(0)
; entry of this step. Unlike DIGIT, n is read from the vector's lane 1
; at the start of each step: column i + 1 there holds every product
; added to it so far and no carry (carries stay in s, n), which is n, so
; the scalar side keeps no lane 2 (5 instructions fewer a step; the
; vector work lags the scalar by one step). Temps: rax, rdx, r11, r14.
; r10 = 2^52 - 1.
%macro SQDIGIT 4
%if HALFLAST && (%4) == Z - 1
%define %%W ymm
%else
%define %%W zmm
%endif
	vpextrq %3, xmm %+ %eval(ACCN(%1, 0)), 1 ; n: lane 1 before this step
	vpbroadcastq zmm %+ %eval(BN(%1)), [rbx + D2O(%1) - D2O(0)] ; d_i
%assign k %4
%rep Z - (%4)
	SQPROD vpmadd52luq, ACCN(%1, k), k, %1, k == (%4)
%assign k k + 1
%endrep
	vpaddq %%W %+ %eval(ACCN(%1, %4)) {k4}, %%W %+ %eval(ACCN(%1, %4)), [rsp + DLO(%1) + 64 * (%4)]
	MY_STEP %1, %2, %3
	; the high halves: below register %4 (no cross products) hi(m y)
	; straight into the accumulator (its chain is no longer than register
	; %4's); from %4 on into H (the diagonal's in register %4's lane i,
	; else zero), added after
%assign k 0
%rep Z
%if k < (%4)
	PROD vpmadd52huq, ACCN(%1, k), k, %1, 1
%elif k == (%4)
	vmovdqa64 %%W %+ %eval(HN(%1, k)) {k4}{z}, [rsp + DHI(%1) + 64 * k]
%else
	vpxorq zmm %+ %eval(HN(%1, k)), zmm %+ %eval(HN(%1, k)), zmm %+ %eval(HN(%1, k))
%endif
%assign k k + 1
%endrep
%assign k %4
%rep Z - (%4)
	SQPROD vpmadd52huq, HN(%1, k), k, %1, k == (%4)
	PROD vpmadd52huq, HN(%1, k), k, %1, 1
%assign k k + 1
%endrep
%assign k %4
%rep Z - (%4)
%if HALFLAST && k == Z - 1
	vpaddq ymm %+ %eval(ACCN(%1, k)), ymm %+ %eval(ACCN(%1, k)), ymm %+ %eval(HN(%1, k))
%else
	vpaddq ACC(%1, k), ACC(%1, k), zmm %+ %eval(HN(%1, k))
%endif
%assign k k + 1
%endrep
%endmacro

; SQBLOCK first, end: the steps first .. end - 1 of both halves, all in
; the block of register r0 = floor(first / 8); rbx walks the frame's D2(0)
; from step first's entry. The masks (public constants of the step) start
; as k3 = lanes > j, k4 = lane j for j = first mod 8 and move one lane up
; a step, except in steps 0..2 (lanes 3..7, no diagonal: SQPRE's).
%macro SQBLOCK 2
%assign %%j (%1) % 8
%if (%1) < 3
	mov eax, 0xf8
	kmovb k3, eax
	kxorb k4, k4, k4
%else
	mov eax, (0xff << (%%j + 1)) & 0xff
	kmovb k3, eax
	mov eax, 1 << %%j
	kmovb k4, eax
%endif
%%step:
	SQDIGIT 0, r12, r15, (%1) / 8
	SQDIGIT 1, r13, rbp, (%1) / 8
%if (%1) >= 3
	kshiftlb k3, k3, 1
	kshiftlb k4, k4, 1
%endif
	add rbx, 8
	lea rax, [rsp + D2O(0) + 8 * (%2)]
	cmp rbx, rax
	jne %%step
%endmacro

; SQPRE h, s, n: half h's squaring setup from a = [rsi + OFF(h)]: s, n
; and the frame's P(h) lanes 2..5 = the columns 0..5 of the exact square
; of a_0 + a_1 2^52 + a_2 2^104 (each below 2^55); D2(h), DLO(h), DHI(h)
; (the method above). Uses rax, rdx, r9, r10, r11, r14, zmm0..zmm6 (the
; accumulators' and H's registers, free before the digit loop).
%macro SQPRE 3
	mov rdx, [rsi + OFF(%1)]
	shl rdx, 12                            ; a_0 2^12
	mulx %3, rax, [rsi + OFF(%1)]          ; a_0 a_0
	shr rax, 12
	mov %2, rax                            ; column 0
	mulx r9, rax, [rsi + 8 + OFF(%1)]      ; a_0 a_1, twice
	shr rax, 11
	add %3, rax                            ; column 1
	lea r10, [r9 + r9]                     ; column 2
	mulx r9, rax, [rsi + 16 + OFF(%1)]     ; a_0 a_2, twice
	shr rax, 11
	add r10, rax
	lea r11, [r9 + r9]                     ; column 3
	mov rdx, [rsi + 8 + OFF(%1)]
	shl rdx, 12
	mulx r9, rax, [rsi + 8 + OFF(%1)]      ; a_1 a_1
	shr rax, 12
	add r10, rax
	add r11, r9
	mulx r9, rax, [rsi + 16 + OFF(%1)]     ; a_1 a_2, twice
	shr rax, 11
	add r11, rax
	lea r14, [r9 + r9]                     ; column 4
	mov rdx, [rsi + 16 + OFF(%1)]
	shl rdx, 12
	mulx r9, rax, [rsi + 16 + OFF(%1)]     ; a_2 a_2
	shr rax, 12
	add r14, rax
	mov [rsp + PS(%1) + 8], %3             ; column 1, read back as n
	mov [rsp + PS(%1) + 16], r10
	mov [rsp + PS(%1) + 24], r11
	mov [rsp + PS(%1) + 32], r14
	mov [rsp + PS(%1) + 40], r9            ; column 5
	vpxorq zmm0, zmm0, zmm0
%assign k 0
%rep Z
%assign %%cur 1 + (k % 2)
%if k == 0
%assign %%prev 0
%else
%assign %%prev 1 + ((k - 1) % 2)
%endif
	vmovdqu64 zmm %+ %%cur, [rsi + 64 * k + OFF(%1)]
	valignq zmm3, zmm %+ %%cur, zmm %+ %%prev, 7 ; a one lane up
	vpsrlq zmm3, zmm3, 51                  ; c_{k-1}
	vpsllq zmm4, zmm %+ %%cur, 1
	vporq zmm4, zmm4, zmm3                 ; d_k (bit 52 unused by IFMA)
	vmovdqa64 [rsp + D2O(%1) + 64 * k], zmm4
	vpxorq zmm5, zmm5, zmm5
	vpmadd52luq zmm5, zmm %+ %%cur, zmm3   ; c_{k-1} a_k
	vpmadd52luq zmm5, zmm %+ %%cur, zmm %+ %%cur
	vmovdqa64 [rsp + DLO(%1) + 64 * k], zmm5
	vpxorq zmm6, zmm6, zmm6
	vpmadd52huq zmm6, zmm %+ %%cur, zmm %+ %%cur
	vmovdqa64 [rsp + DHI(%1) + 64 * k], zmm6
%assign k k + 1
%endrep
%endmacro

; AMM52 L, HALVES, USEH, AR, MR, BREG, YREG, WIN, SQR: the function for L
; digits and 1 or 2 numbers (the window function when WIN, its squarings
; the dedicated ones when SQR, else the multiply with b = acc), its shape: the high halves in H (USEH) or straight
; into the accumulators after the shift, AR of a's and MR of m's registers
; held in registers (the rest read from memory), b_i and y broadcast into
; a register (BREG, YREG) or embedded in the multiply-adds ({1to8}; y
; through the stack) where the other operand is in a register.
%macro AMM52 9
%assign L %1
%assign HALVES %2
%assign USEH %3
%assign AR %4
%assign MR %5
%assign BREG %6
%assign YREG %7
%assign WIN %8
%assign SQR %9
%assign Z (L + 7) / 8
%assign HALFLAST (L % 8 == 4)
REGMAP
%if WIN
FUNC vg_amm52x%2w_ifma_%1
%else
FUNC vg_amm52x%2_ifma_%1
%endif
	PUSH_CALLEE
%if WIN
%if HALVES != 2
%error the window is paired
%endif
	; (acc, sel, m, k0, nsq) to the multiply's registers: r = a = acc;
	; the frame 64-byte aligned, rsp kept in r8 (unused after this)
	mov rax, [rcx]
	mov r9, [rcx + 8]
	mov rcx, rdx                           ; m
	mov rdx, r8                            ; nsq
	mov r8, rsp
	sub rsp, WFRAME
	and rsp, -64
	mov SELS, rsi
	mov CNT, rdx
	mov rsi, rdi                           ; a
	shl rax, 12
	mov K0S(0), rax                        ; k0 2^12
	shl r9, 12
	mov K0S(1), r9
%if SQR
	; P's lanes 6, 7 stay zero (SQPRE writes 2..5; 0 and 1 are unused)
	xor eax, eax
	mov [rsp + PS(0) + 48], rax
	mov [rsp + PS(0) + 56], rax
	mov [rsp + PS(1) + 48], rax
	mov [rsp + PS(1) + 56], rax
%endif
%else
	sub rsp, FRAME
	mov rbx, rdx                           ; b (rdx is mulx's operand)
	mov rax, [r8]
	shl rax, 12
	mov K0S(0), rax                        ; k0 2^12
%if HALVES == 2
	mov rax, [r8 + 8]
	shl rax, 12
	mov K0S(1), rax
%endif
%endif
	mov eax, 0x7f
	kmovb k1, eax                          ; the shift's top lane: zero
	mov eax, 0x07
	kmovb k2, eax
%assign h 0
%rep HALVES
%assign k 0
%rep MR
	vmovdqu64 zmm %+ %eval(MN(h, k)), [rcx + 64 * k + OFF(h)]
%assign k k + 1
%endrep
%assign h h + 1
%endrep
%if WIN
	; one operation a turn: nsq squarings, then the multiply by sel; the
	; count and the pointers are public
%%op:
%if SQR == 0
	mov rbx, rdi                           ; b = acc while squaring
	cmp qword CNT, 0
	jne %%mulsq
%else
	cmp qword CNT, 0
	je %%mulop
	SQPRE 0, r12, r15
	SQPRE 1, r13, rbp
	mov r10, (1 << 52) - 1
%assign h 0
%rep HALVES
	vmovdqa64 ACC(h, 0), [rsp + PS(h)]
%assign k 1
%rep Z - 1
	vpxorq ACC(h, k), ACC(h, k), ACC(h, k)
%assign k k + 1
%endrep
%assign k 0
%rep AR
	vmovdqu64 zmm %+ %eval(AN(h, k)), [rsi + 64 * k + OFF(h)]
%assign k k + 1
%endrep
%assign h h + 1
%endrep
	lea rbx, [rsp + D2O(0)]
	SQBLOCK 0, 3
	SQBLOCK 3, 8
%assign r0 1
%rep Z - 1
%if 8 * r0 + 8 < L
	SQBLOCK 8 * r0, 8 * r0 + 8
%else
	SQBLOCK 8 * r0, L
%endif
%assign r0 r0 + 1
%endrep
	vpextrq r15, xmm %+ %eval(ACCN(0, 0)), 1 ; n of each half: lane 1
	vpextrq rbp, xmm %+ %eval(ACCN(1, 0)), 1
	jmp %%norm
%endif
%%mulop:
	mov rbx, SELS
%%mulsq:
%endif
	mov r10, (1 << 52) - 1
	xor r12d, r12d                         ; s, n of each half: lanes 0, 1
	xor r13d, r13d
	xor r15d, r15d
	xor ebp, ebp
%assign h 0
%rep HALVES
%assign k 0
%rep Z
	vpxorq ACC(h, k), ACC(h, k), ACC(h, k)
%if k < AR
	vmovdqu64 zmm %+ %eval(AN(h, k)), [rsi + 64 * k + OFF(h)]
%endif
%assign k k + 1
%endrep
%assign h h + 1
%endrep
	lea rax, [rbx + 8 * L]                 ; end of half 0's digits of b
	mov ENDB, rax
%%digit:
	DIGIT 0, r12, r15
%if HALVES == 2
	DIGIT 1, r13, rbp
%endif
	add rbx, 8
	cmp rbx, ENDB
	jne %%digit
	vpextrq r15, xmm %+ %eval(ACCN(0, 0)), 1 ; n of each half: lane 1
%if HALVES == 2
	vpextrq rbp, xmm %+ %eval(ACCN(1, 0)), 1
%endif

	; Normalise and store; lanes 0 and 1 are s and n (the vector lacks the
	; carries).
%%norm:
%if Z <= 8 && USEH
	VNORM 0, ACCN(0, 0), HN(0, 0), r12, r15
%if HALVES == 2
	VNORM 1, ACCN(1, 0), HN(1, 0), r13, rbp
%endif
%else
%assign h 0
%rep HALVES
%assign k 0
%rep Z
	vmovdqu64 [rdi + 64 * k + OFF(h)], ACC(h, k)
%assign k k + 1
%endrep
%assign h h + 1
%endrep
	mov [rdi], r12
	mov [rdi + 8], r15
%if HALVES == 2
	mov [rdi + OFF(1)], r13
	mov [rdi + 8 + OFF(1)], rbp
%endif
	mov r10d, 52                           ; NORM52's bzhi index
	NORM52 HALVES, OFF(1)
%endif
%if WIN
	sub qword CNT, 1                       ; -1 after the multiply by sel
	jns %%op
%endif
	; The registers and the frame held secrets: clear them.
%assign k 0
%rep 32
	vpxorq zmm %+ k, zmm %+ k, zmm %+ k
%assign k k + 1
%endrep
%if WIN
	; the frame's secrets: k0, y, and with SQR P, D2, DLO, DHI
%if SQR
%assign k 0
%rep 3 + 2 * Z
	vmovdqa64 [rsp + 64 * k], zmm0
%assign k k + 1
%endrep
%assign k 0
%rep 4 * Z
	vmovdqa64 [rsp + DLO(0) + 64 * k], zmm0
%assign k k + 1
%endrep
%else
	vmovdqa64 [rsp], zmm0
%endif
	vzeroupper
	mov rsp, r8
%else
	vzeroupper
	xor eax, eax
	mov K0S(0), rax
	mov K0S(1), rax
	mov YS(0), rax
	mov YS(1), rax
	add rsp, FRAME
%endif
	POP_CALLEE
	ret
%if WIN
ENDFUNC vg_amm52x%2w_ifma_%1
%else
ENDFUNC vg_amm52x%2_ifma_%1
%endif
%endmacro

; The paired multiplies of the CRT halves of RSA-2048/3072/4096, and
; single ones for the moduli of the public operation (L = 40, 60, 80).
; Each shape is the fastest of those tried on Zen 4, interleaved against
; the others in one process (median cycles per call): all of a and m in
; registers where they fit with H (L = 20: 560 against 675 for the former
; code), else m's (L = 30: 1125 against 1380); at the paired L = 40,
; where H leaves room for only 3 of m's registers, 1815 against 1880; the
; single ones 0.80 (L = 40) to 0.98 (L = 80) of the former. The windows
; take their sizes' shapes (others measured no faster at L = 20).
AMM52 20, 2, 1, 3, 3, 1, 1, 0, 0
AMM52 30, 2, 1, 0, 4, 1, 1, 0, 0
AMM52 40, 2, 1, 0, 3, 1, 1, 0, 0
AMM52 40, 1, 1, 5, 5, 0, 0, 0, 0
AMM52 60, 1, 1, 6, 8, 0, 0, 0, 0
AMM52 80, 1, 1, 0, 8, 1, 1, 0, 0
; The windows: the dedicated squaring at 30 and 40 digits; at 20 the
; multiply squares faster on an idle Zen 4 core (the squaring's window
; 1.106 of its time in the quietest quarter of 301 interleaved rounds,
; 0.954 in the busiest, where another process shares the vector unit;
; at 30 digits 0.97 in both, at 40 0.936 and 0.882).
AMM52 20, 2, 1, 3, 3, 1, 1, 1, 0
AMM52 30, 2, 1, 0, 4, 1, 1, 1, 1
AMM52 40, 2, 1, 0, 3, 1, 1, 1, 1
