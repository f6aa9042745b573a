; mont_blk_macros.asm: the blocks of eight rows that the adx squaring
; (mont_sqr_adx.asm) and multiplication (mont_adx.asm) share: a nine-word
; window of T in registers (W0..W8) that a step multiplies eight limbs
; into, and the reduction built on it. The includer defines T(j), N and
; the frame operands RB_TC, RB_M0, RB_R and RB_P(j). Secret: everything
; these macros compute; only counters and pointers steer them.
%ifndef VG_MONT_BLK_MACROS_ASM
%define VG_MONT_BLK_MACROS_ASM 1

; REDUCE_BLK: the Montgomery reduction of T (2N words) eight rows at a
; time. Row form reads and writes T at every product (three memory
; operations per mulx); here a block of eight rows keeps a nine-word
; window of T in registers and takes one (the other factor's limb). Per
; block at T(i):
;  1. the u-phase: the window W0..W7 = T(i..i+7); eight rows u_k = W0
;     m0inv, W += u_k (m_0..m_7) with the window sliding down a word per
;     row (W0 is zero and leaves, the new top word is the last high half).
;     u_k is stored at T(i+k), a word no later block reads.
;  2. the columns j = 8..N-1: W += m_j (u_0..u_7) over W0..W8, then W0 is
;     the block's product word at i + j and goes to P; slide.
;  3. P is added into T(i+8..i+N-1) and the window's last eight words into
;     T(i+N..i+N+7), in a pass of its own (both flags carry the products
;     until then, and no register is left for a third chain): CF carries
;     that sum, OF brings in tc, what the previous block carried out of
;     T(i+N-1); both carries out are the next tc (0, 1 or 2).
; Why nine words suffice: the window W (< 2^512) plus u times 8 limbs, or
; m_j times U = u_0..u_7, is below 2^576, so the top word takes both
; chains' carries and nothing leaves it. The u's are those of the row
; form, so T ends the same. Uses every register but rsp; r and m0inv wait
; in the frame (RB_R, RB_M0: the includer's slots; rcx = m on entry; rdi,
; r8 and r13 = tc, the top word, on exit). A product costs three
; instructions here (mulx with the limb from memory, adcx, adox) against
; the row form's four with two of them memory operations. Used by every
; adx multiply (after MUL_BLK) and every adx squaring. Against the row
; form on Zen 5 (old and new objects in one process, bench/vgpair):
;  - the 64-limb squaring: 0.93-0.94 of its time;
;  - RSA-3072's public kernels (48 limbs): 0.92 over twelve placements of
;    the new code. Two redundant stores to the frame's slots just before
;    REDUCE_BLK had hidden that gain: with them the 48-limb squaring took
;    1.08-1.09 of its time without them (at 64 limbs nothing), for a
;    reason we did not find;
;  - a private exponentiation's loop (five squarings and a multiply) at
;    24 and 32 limbs: 0.976-0.979 in the host's quiet minutes and
;    0.95-0.97 in its slow ones, when a dependent add chain ran 10 %
;    slower and independent mulx 29 % (a neighbour on the core's other
;    thread sharing the ports, as we read it: there instructions count
;    more than latency); at 16 limbs 0.99-1.0.
; Round 8 had read the opposite at 16-32 limbs from vgbench (1.007
; against 0.970 of aws-lc's time), inside that tool's run-to-run spread.
%macro W_SLIDE 0
%xdefine WT W0
%xdefine W0 W1
%xdefine W1 W2
%xdefine W2 W3
%xdefine W3 W4
%xdefine W4 W5
%xdefine W5 W6
%xdefine W6 W7
%xdefine W7 W8
%xdefine W8 WT
%endmacro

; W_NAMES r0, ..., r8: the window's words W0..W8 are these registers
; (from here on, until W_SLIDE renames them).
%macro W_NAMES 9
%xdefine W0 %1
%xdefine W1 %2
%xdefine W2 %3
%xdefine W3 %4
%xdefine W4 %5
%xdefine W5 %6
%xdefine W6 %7
%xdefine W7 %8
%xdefine W8 %9
%endmacro

; W_AT n: WA names the window's word Wn (n an expression, 0 to 8).
%macro W_AT 1
%assign w_at_n %1
%xdefine WA W %+ w_at_n
%endmacro

; W_MULADD r, base: the window step of REDUCE_BLK and CROSS_BLK, W += rdx
; times the r (<= 8) limbs at [base]: product k's low half into Wk on the
; CF chain, its high half into W(k+1) on the OF chain; the last high half
; goes straight into Wr (the window's words end at W(r-1)), which then
; takes both chains' carries. CF and OF clear on entry, rax = 0 (xor eax,
; eax). Uses rbx, r10.
%macro W_MULADD 2
%assign wk 0
%rep %1 - 1
	mulx rbx, r10, [%2 + 8 * wk]
	W_AT wk
	adcx WA, r10
	W_AT wk + 1
	adox WA, rbx
%assign wk wk + 1
%endrep
	W_AT %1
%xdefine WTOP WA
	mulx WTOP, r10, [%2 + 8 * (%1 - 1)]
	W_AT %1 - 1
	adcx WA, r10
	adox WTOP, rax
	adcx WTOP, rax
%endmacro

%macro REDUCE_BLK 0
	xor eax, eax
	mov RB_TC, rax
	mov r11, rsp
	align 64
%%block:
	W_NAMES rsi, rdi, rbp, r8, r9, r12, r13, r14, r15
%assign k 0
%rep 8
	W_AT k
	mov WA, [r11 + 8 * k]
%assign k k + 1
%endrep
%assign k 0
%rep 8
	mov rdx, W0
	imul rdx, RB_M0                 ; u_k, before the chains (imul sets flags)
	mov [r11 + 8 * k], rdx
	xor eax, eax
	W_MULADD 8, rcx                 ; W0 becomes 0 by the choice of u
	W_SLIDE
%assign k k + 1
%endrep
%assign j 8
%rep N - 8
	mov rdx, [rcx + 8 * j]
	xor eax, eax
	W_MULADD 8, r11
	mov RB_P(j), W0
	W_SLIDE
%assign j j + 1
%endrep
	xor eax, eax
%assign j 8
%rep N - 8
	mov r10, RB_P(j)
	adcx r10, [r11 + 8 * j]
	mov [r11 + 8 * j], r10
%assign j j + 1
%endrep
%assign k 0
%rep 8
	W_AT k
	adcx WA, [r11 + 8 * (N + k)]
%if k == 0
	adox WA, RB_TC
%else
	adox WA, rax
%endif
	mov [r11 + 8 * (N + k)], WA
%assign k k + 1
%endrep
	mov r10, rax
	adcx r10, rax
	adox r10, rax
	mov RB_TC, r10
	lea r11, [r11 + 64]
	lea r10, [rsp + 8 * N]
	cmp r11, r10
	jne %%block
	xor esi, esi                    ; held T: secret (the others are
	xor r9d, r9d                    ; reloaded or popped)
	mov rdi, RB_R
	mov r8, RB_M0
	mov r13, RB_TC
%endmacro

%endif
