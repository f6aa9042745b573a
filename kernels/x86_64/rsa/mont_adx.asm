; mont_adx.asm: Montgomery multiplication at the adx tier (mulx with the two
; carry chains of adcx/adox) for 16, 24 and 32 limbs (the CRT halves of
; RSA-2048/3072/4096) and 48 and 64 (RSA-3072's and RSA-4096's public
; moduli): the product and then the reduction, each eight rows at a time
; (MUL_BLK, REDUCE_BLK).
; Secret: every operand, the modulus and m0inv. No branch and no address
; depends on them: the only branches are the block counters (public), addresses are the argument pointers and the stack plus
; constants, or a pointer stepped by a constant.
;
; void vg_mont_mul_adx_N(uint64_t *r, const uint64_t *a, const uint64_t *b,
;                        const uint64_t *m, uint64_t m0inv, size_t n)
; Same contract as vg_mont_mul_c (mont.h) with n == N (the argument is
; ignored): r = a b R^-1 mod m, b < m, a < R, r fully reduced, r may alias
; a or b (r is written only after the last read of a and b).

%include "x86_64/common/config.asm"

%include "x86_64/rsa/mont_macros.asm"
%include "x86_64/rsa/mont_blk_macros.asm"

; The product and the reduction are separate, each eight rows at a time
; over a window of T in registers (W_MULADD), as the squaring's reduction
; is (REDUCE_BLK): row by row, interleaving the two (CIOS), each product
; would read and write T. MUL_BLK: T = a b, block i
; taking b_i..b_{i+7} as the rows: for each column j, W += a_j
; (b_i..b_{i+7}), then W0 is the block's product word at i + j and goes to
; P; then P is added into T(i..i+N-1) and the window's last eight words
; are stored above it, with the carry (no earlier block reached
; T(i+N..i+N+7), and no carry leaves T(i+N+7): T then holds a times b
; mod 2^(64(i+8)), below 2^(64(i+N+8))). The nine-word window suffices for
; the reason REDUCE_BLK gives. One pointer, r11, steps over T and b's copy
; in the frame (b_k at MB_BC + k), which leaves a register for a; r, m
; and m0inv wait in the frame. Against the row form (old and new objects
; in one process, vgpair, Zen 5): RSA-4096's public operation took 0.98
; of its time; with the squarings' REDUCE_BLK at 16-32 limbs already in
; both, a private exponentiation's loop (five squarings and a multiply)
; 0.97-0.98 at 16 and 24 limbs, 1.005 at 32 (its control 1.02-1.03) and
; 0.98 at 48 (one placement of the code each). It is four times the row
; form's code (15.5 KB at 32 limbs, beside a 22 KB squaring, past a 32 KB
; instruction cache); the size is not what the host's slow phase
; punishes, as far as we measured: there the squarings' REDUCE_BLK, the
; larger code, gained the most.
%define MB_TC (2 * N)
%define MB_M0 (MB_TC + 1)
%define MB_R (MB_TC + 2)
%define MB_M (MB_TC + 3)
%define MB_PB (MB_TC + 4)
%define MB_BC (MB_PB + N)
%define MB_FRAME (MB_BC + N)
%define MB_P(j) [rsp + 8 * (MB_PB + (j))]
%define RB_TC [rsp + 8 * MB_TC]
%define RB_M0 [rsp + 8 * MB_M0]
%define RB_R [rsp + 8 * MB_R]
%define RB_P(j) MB_P((j) - 8)

%macro MUL_BLK 0
	mov r11, rsp
	align 64
%%block:
	W_NAMES rcx, rdi, rbp, r8, r9, r12, r13, r14, r15
%assign k 0
%rep 8
	W_AT k
	xor WA, WA
%assign k k + 1
%endrep
%assign j 0
%rep N
	mov rdx, [rsi + 8 * j]
	xor eax, eax
	W_MULADD 8, r11 + 8 * MB_BC
	mov MB_P(j), W0
	W_SLIDE
%assign j j + 1
%endrep
	mov r10, MB_P(0)
	add [r11], r10
%assign j 1
%rep N - 1
	mov r10, MB_P(j)
	adc [r11 + 8 * j], r10
%assign j j + 1
%endrep
%assign k 0
%rep 8
	W_AT k
	adc WA, 0
	mov [r11 + 8 * (N + k)], WA
%assign k k + 1
%endrep
	lea r11, [r11 + 64]
	lea r10, [rsp + 8 * N]
	cmp r11, r10                    ; public: N / 8 blocks
	jne %%block
%endmacro

%macro MONT_MUL_ADX 1
%assign N %1
FUNC vg_mont_mul_adx_%1
	PUSH_CALLEE
	sub rsp, 8 * MB_FRAME
	mov RB_R, rdi
	mov RB_M0, r8
	mov [rsp + 8 * MB_M], rcx
	; b's copy; T = 0 (the blocks add into it)
%assign k 0
%rep N
	mov rax, [rdx + 8 * k]
	mov [rsp + 8 * (MB_BC + k)], rax
%assign k k + 1
%endrep
	pxor xmm0, xmm0
%assign k 0
%rep N / 2
	movdqu T(k), xmm0
%assign k k + 2
%endrep
	MUL_BLK
	mov rcx, [rsp + 8 * MB_M]
	REDUCE_BLK
	; t = T(N..2N-1) + r13 2^(64 N) < 2m
	MONT_FINAL N, r13
	MONT_WIPE MB_FRAME
	add rsp, 8 * MB_FRAME
	POP_CALLEE
	ret
ENDFUNC vg_mont_mul_adx_%1
%endmacro

MONT_MUL_ADX 16
MONT_MUL_ADX 24
MONT_MUL_ADX 32
MONT_MUL_ADX 48
MONT_MUL_ADX 64

