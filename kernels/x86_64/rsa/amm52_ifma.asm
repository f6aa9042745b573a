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
; (public) squarings acc = acc acc, then acc = acc sel, each the x2
; multiply above (the same digit loop and normalisation, looped in one
; call: m stays in registers and the frame is set up once).
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
;    the vector: the final lanes 0 and 1 are written from s and n. The next
;    n is lane 2, read at the start of the step (the vector work of the
;    step before), plus this step's products landing there. So the vector
;    work may lag the scalar by two steps;
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

; One digit step of half %1 with s = %2, n = %3 (see the method above).
; Temps: rax, rdx, r9, r11, r14. r10 = 2^52 - 1.
%macro DIGIT 3
	vextracti64x2 xmm %+ %eval(XN(%1)), ACC(%1, 0), 1
	vmovq r9, xmm %+ %eval(XN(%1))         ; lane 2 before this step
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
	add r9, r11                            ; hi52, lane 2
	imul rdx, [rsi + 16 + OFF(%1)]
	shr rdx, 12
	add r9, rdx                            ; lo52(a_2 b_i), lane 2
	mov rdx, %2
	imul rdx, K0S(%1)                      ; Y' = (s k0 mod 2^52) 2^12
	lea r14, [%2 + r10]
	shr r14, 52                            ; the carry out of lane 0
	add %3, r14
	mov rax, rdx
	shr rax, 12                            ; y
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
	add r9, r11                            ; hi52, lane 2
	imul rdx, [rcx + 16 + OFF(%1)]
	shr rdx, 12
	add r9, rdx                            ; lo52(m_2 y), lane 2
	mov %2, %3                             ; s, n = lanes 1, 2
	mov %3, r9
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

; AMM52 L, HALVES, USEH, AR, MR, BREG, YREG: the function for L digits
; and 1 or 2 numbers, its shape: the high halves in H (USEH) or straight
; into the accumulators after the shift, AR of a's and MR of m's registers
; held in registers (the rest read from memory), b_i and y broadcast into
; a register (BREG, YREG) or embedded in the multiply-adds ({1to8}; y
; through the stack) where the other operand is in a register.
%macro AMM52 8
%assign L %1
%assign HALVES %2
%assign USEH %3
%assign AR %4
%assign MR %5
%assign BREG %6
%assign YREG %7
%assign WIN %8
%assign Z (L + 7) / 8
%assign HALFLAST (L % 8 == 4)
REGMAP
%if WIN
FUNC vg_amm52x%2w_ifma_%1
%else
FUNC vg_amm52x%2_ifma_%1
%endif
	PUSH_CALLEE
	sub rsp, FRAME
%if WIN
	; (acc, sel, m, k0, nsq) to the multiply's registers: r = a = acc
	mov SELS, rsi
	mov CNT, r8
	mov r8, rcx                            ; k0
	mov rcx, rdx                           ; m
	mov rsi, rdi                           ; a
%else
	mov rbx, rdx                           ; b (rdx is mulx's operand)
%endif
	mov rax, [r8]
	shl rax, 12
	mov K0S(0), rax                        ; k0 2^12
%if HALVES == 2
	mov rax, [r8 + 8]
	shl rax, 12
	mov K0S(1), rax
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
	; one multiply a turn: nsq squarings (b = acc), then b = sel; the
	; count and both pointers are public
%%op:
	mov rbx, rdi
	cmp qword CNT, 0
	jne %%bset
	mov rbx, SELS
%%bset:
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

	; Normalise and store; lanes 0 and 1 are s and n (the vector lacks the
	; carries).
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
	vzeroupper
	xor eax, eax
	mov K0S(0), rax
	mov K0S(1), rax
	mov YS(0), rax
	mov YS(1), rax
	add rsp, FRAME
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
AMM52 20, 2, 1, 3, 3, 1, 1, 0
AMM52 30, 2, 1, 0, 4, 1, 1, 0
AMM52 40, 2, 1, 0, 3, 1, 1, 0
AMM52 40, 1, 1, 5, 5, 0, 0, 0
AMM52 60, 1, 1, 6, 8, 0, 0, 0
AMM52 80, 1, 1, 0, 8, 1, 1, 0
AMM52 20, 2, 1, 3, 3, 1, 1, 1
AMM52 30, 2, 1, 0, 4, 1, 1, 1
AMM52 40, 2, 1, 0, 3, 1, 1, 1
