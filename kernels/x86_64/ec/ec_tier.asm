; ec_tier.asm: the functions of one curve at one tier, assembled once per
; (curve, tier) by p256_TIER.asm / p384_TIER.asm, which define first:
;   CURVE (p256, p384), TIER (base, adx, ifma), N (limbs), ES (8 N),
;   ROWS (comb rows), FE_MUL d, a, b / FE_SQR d, a / FE_ADD / FE_SUB /
;   SC_MUL d, a, b (ec_macros.asm), MOD_P, MOD_N, ONE (constants),
;   SELECT (the comb's table scan: SELECT_SSE2 or SELECT_AVX512), and
;   FULL (1: every function; 0: the comb only, the ifma file).
; Secret: every element, point coordinate and comb digit. No branch or
; address depends on them: the only branches are on the public row
; counter, the only addresses the arguments, the stack frame, the public
; table rows and constants.
;
; Points are struct vg_ec_point (kernels/src/ec/ec.h): X at +0, Y at +48,
; Z at +96 (48-byte slots for both curves), here in Jacobian coordinates
; (x = X/Z^2, y = Y/Z^3, Z = 0 the identity). An affine point is x at +0,
; y at +ES. C prototypes (kernels/src/ec/ec_asm.h):
;   void vg_CURVE_mul_TIER(uint64_t *r, const uint64_t *a, const uint64_t *b);
;   void vg_CURVE_sqr_TIER(uint64_t *r, const uint64_t *a);
;   void vg_CURVE_ord_mul_TIER(uint64_t *r, const uint64_t *a, const uint64_t *b);
;       r = a b R^-1 mod p (mod n), r < p (n), for any a, b < R
;   void vg_CURVE_jdbl_TIER(vg_ec_point *r, const vg_ec_point *p);
;   uint64_t vg_CURVE_jmadd_TIER(vg_ec_point *r, const vg_ec_point *p, const uint64_t *q);
;       r = p + q, q affine, p not the identity
;   uint64_t vg_CURVE_jadd_TIER(vg_ec_point *r, const vg_ec_point *p, const vg_ec_point *q);
;       r = p + q, p and q not the identity
;   Both return bit 0: H = 0 (x(p) = x(q), so Z3 = 0), bit 1: R = 0
;   (y(p) = y(q)): r is right unless bit 0 is set; a caller on public
;   points tells the doubling (3) from the opposite (1) case by them.
;   void vg_CURVE_comb_TIER(vg_ec_point *r, const uint64_t *table, const int8_t *d);
;       r = sum_i d_i 128^i G over the ROWS signed digits d (ec_base.c's
;       recoding), table = the curve's comb (ec_gen_table.c); r in the
;       rows' homogeneous projective form (x = X/Z, y = Y/Z), Z = 0 for
;       the identity (then X = 0 and Y = 0 too: the caller sets Y)
; r may alias p or q.

%define PX 0
%define PY 48
%define PZ 96
%define S(k) rsp + 64 * (k)      ; frame slot k (an element)

%if FULL

FUNC vg_ %+ CURVE %+ _mul_ %+ TIER
    PUSH_CALLEE
    mov rcx, rdx                ; the macros take rdx for themselves
    FE_MUL rdi, rsi, rcx
    CSUB_AT N, rdi, MOD_P       ; below R -> below p, for unreduced inputs
    POP_CALLEE
    ret
ENDFUNC vg_ %+ CURVE %+ _mul_ %+ TIER

FUNC vg_ %+ CURVE %+ _sqr_ %+ TIER
    PUSH_CALLEE
    FE_SQR rdi, rsi
    CSUB_AT N, rdi, MOD_P
    POP_CALLEE
    ret
ENDFUNC vg_ %+ CURVE %+ _sqr_ %+ TIER

FUNC vg_ %+ CURVE %+ _ord_mul_ %+ TIER
    PUSH_CALLEE
    mov rcx, rdx
    SC_MUL rdi, rsi, rcx
    CSUB_AT N, rdi, MOD_N
    POP_CALLEE
    ret
ENDFUNC vg_ %+ CURVE %+ _ord_mul_ %+ TIER

%endif

; r = 2 p (dbl-2001-b with Z3 = 2 Y Z; a = -3): 4M + 4S and ten
; additions, 2 Y^2 shared: 4 beta = X (4 Y^2) and 8 Y^4 = 2 (2 Y^2)^2. The
; identity (Z = 0) doubles to Z3 = 0. %1 = r, %2 = p (registers).
%macro JDBL 2
    FE_SQR S(0), %2 + PZ                ; delta = Z^2
    FE_SQR S(1), %2 + PY                ; gamma = Y^2
    FE_SUB S(3), %2 + PX, S(0)          ; X - delta
    FE_ADD S(4), %2 + PX, S(0)          ; X + delta
    FE_MUL S(3), S(3), S(4)
    FE_ADD S(1), S(1), S(1)             ; 2 gamma
    FE_ADD S(2), S(1), S(1)             ; 4 gamma
    FE_MUL S(2), %2 + PX, S(2)          ; 4 beta = X 4 gamma
    FE_ADD S(4), S(3), S(3)
    FE_ADD S(3), S(4), S(3)             ; alpha = 3 (X - delta)(X + delta)
    FE_MUL S(4), %2 + PY, %2 + PZ
    FE_ADD %1 + PZ, S(4), S(4)          ; Z3 = 2 Y Z (p is not read after)
    FE_SQR S(4), S(3)                   ; alpha^2
    FE_ADD S(5), S(2), S(2)             ; 8 beta
    FE_SUB %1 + PX, S(4), S(5)          ; X3 = alpha^2 - 8 beta
    FE_SUB S(2), S(2), %1 + PX
    FE_MUL S(2), S(3), S(2)             ; alpha (4 beta - X3)
    FE_SQR S(1), S(1)                   ; 4 gamma^2
    FE_ADD S(1), S(1), S(1)             ; 8 gamma^2
    FE_SUB %1 + PY, S(2), S(1)          ; Y3
%endmacro

; r = p + q for an affine q (madd-2004-hmv): 8M + 3S. Generic case only:
; p = +-q gives H = 0 and Z3 = 0, p the identity a wrong result (the comb
; selects around it). %1 = r, %2 = p, %3 = q (x at +0, y at +ES). Uses
; slots 0..6.
%macro JMADD 3
    FE_SQR S(0), %2 + PZ                ; Z1Z1
    FE_MUL S(1), %2 + PZ, S(0)          ; Z1^3
    FE_MUL S(2), %3, S(0)               ; U2 = x Z1Z1
    FE_MUL S(3), %3 + ES, S(1)          ; S2 = y Z1^3
    FE_SUB S(2), S(2), %2 + PX          ; H = U2 - X1
    FE_SUB S(3), S(3), %2 + PY          ; R = S2 - Y1
    FE_MUL S(6), %2 + PZ, S(2)          ; Z3 = Z1 H
    FE_SQR S(4), S(2)                   ; HH
    FE_MUL S(5), S(2), S(4)             ; HHH
    FE_MUL S(4), %2 + PX, S(4)          ; V = X1 HH
    FE_MUL S(1), %2 + PY, S(5)          ; Y1 HHH (p is not read after)
    FE_SQR S(0), S(3)                   ; R^2
    FE_SUB S(0), S(0), S(5)
    FE_ADD S(2), S(4), S(4)             ; 2 V
    FE_SUB %1 + PX, S(0), S(2)          ; X3 = R^2 - HHH - 2 V
    FE_SUB S(4), S(4), %1 + PX
    FE_MUL S(4), S(3), S(4)             ; R (V - X3)
    FE_SUB %1 + PY, S(4), S(1)          ; Y3
    COPY_EL %1 + PZ, S(6)
%endmacro

; %1 = %2, one element (rax).
%macro COPY_EL 2
%assign %%j 0
%rep N
    mov rax, [%2 + 8 * %%j]
    mov [%1 + 8 * %%j], rax
%assign %%j %%j + 1
%endrep
%endmacro

; rax = bit 0 if the element at %1 is 0, bit 1 if the one at %2 is
; (elements are reduced, so 0 has one form).
%macro JFLAGS 2
    mov rax, [%1]
    mov rbx, [%2]
%assign j 1
%rep N - 1
    or rax, [%1 + 8 * j]
    or rbx, [%2 + 8 * j]
%assign j j + 1
%endrep
    cmp rax, 1
    sbb eax, eax                        ; -1 iff zero
    cmp rbx, 1
    sbb ebx, ebx
    and eax, 1
    and ebx, 2
    or eax, ebx
%endmacro

%if FULL

%define JF_SIZE 64 * 7 + 8          ; + 8: 16-aligned below the six pushes
FUNC vg_ %+ CURVE %+ _jdbl_ %+ TIER
    PUSH_CALLEE
    sub rsp, JF_SIZE
    JDBL rdi, rsi
    add rsp, JF_SIZE
    POP_CALLEE
    ret
ENDFUNC vg_ %+ CURVE %+ _jdbl_ %+ TIER

FUNC vg_ %+ CURVE %+ _jmadd_ %+ TIER
    PUSH_CALLEE
    sub rsp, JF_SIZE
    mov rcx, rdx
    JMADD rdi, rsi, rcx
    JFLAGS rdi + PZ, S(3)               ; Z3 = Z1 H is 0 iff H is; R
    add rsp, JF_SIZE
    POP_CALLEE
    ret
ENDFUNC vg_ %+ CURVE %+ _jmadd_ %+ TIER

; add-1998-cmo-2: 12M + 4S. Frame slots 0..9; the flags at the end.
%define JA_SIZE 64 * 10 + 8
FUNC vg_ %+ CURVE %+ _jadd_ %+ TIER
    PUSH_CALLEE
    sub rsp, JA_SIZE
    mov rcx, rdx
    FE_SQR S(0), rsi + PZ               ; Z1Z1
    FE_SQR S(1), rcx + PZ               ; Z2Z2
    FE_MUL S(2), rsi + PX, S(1)         ; U1 = X1 Z2Z2
    FE_MUL S(3), rcx + PX, S(0)         ; U2 = X2 Z1Z1
    FE_MUL S(4), rsi + PY, rcx + PZ
    FE_MUL S(4), S(4), S(1)             ; S1 = Y1 Z2^3
    FE_MUL S(5), rcx + PY, rsi + PZ
    FE_MUL S(5), S(5), S(0)             ; S2 = Y2 Z1^3
    FE_MUL S(9), rsi + PZ, rcx + PZ     ; Z1 Z2 (p, q are not read after)
    FE_SUB S(3), S(3), S(2)             ; H = U2 - U1
    FE_SUB S(5), S(5), S(4)             ; R = S2 - S1
    FE_MUL rdi + PZ, S(9), S(3)         ; Z3 = Z1 Z2 H
    FE_SQR S(6), S(3)                   ; HH
    FE_MUL S(7), S(3), S(6)             ; HHH
    FE_MUL S(6), S(2), S(6)             ; V = U1 HH
    FE_SQR S(0), S(5)                   ; R^2
    FE_SUB S(0), S(0), S(7)
    FE_ADD S(1), S(6), S(6)
    FE_SUB rdi + PX, S(0), S(1)         ; X3 = R^2 - HHH - 2 V
    FE_SUB S(6), S(6), rdi + PX
    FE_MUL S(6), S(5), S(6)             ; R (V - X3)
    FE_MUL S(4), S(4), S(7)             ; S1 HHH
    FE_SUB rdi + PY, S(6), S(4)         ; Y3
    JFLAGS S(3), S(5)
    add rsp, JA_SIZE
    POP_CALLEE
    ret
ENDFUNC vg_ %+ CURVE %+ _jadd_ %+ TIER

%endif

; ---------------------------------------------------------------------
; The comb. Per row i: select |d_i| 128^i G from the row's 64 affine
; entries (every entry read, one kept under a mask), negate y for d_i < 0,
; A' = A + Q by XMADD, then A = d_i = 0 ? A : (A is the identity ? Q : A')
; and "A is the identity" &= d_i = 0 (all masks).
;
; Why the mixed addition's exceptional cases cannot occur (so no doubling
; is needed): after rows 0..i-1, A = S_i G with S_i = sum_{j<i} d_j 128^j,
; |S_i| <= 64 (128^i - 1) / 127 < 0.51 128^i; the row adds T = d_i 128^i G
; with 1 <= |d_i| <= 64. A = +-T would need S_i = +-d_i 128^i (mod n), but
; 0 < |S_i -+ d_i 128^i| < 65 128^i < n as long as 7 i + 7 < 250 (P-256:
; rows i <= 35; P-384: i <= 53 as 7 i + 7 < 378). In the last row (i = 36
; resp. 54), k = S_i + d_i 128^i exactly, with d_i = (k >> 7 i) + c in
; [0, 16] (P-256; [0, 64] for P-384), c the carry: A = T would need
; S_i - d_i 128^i = -n (it is above -2n and not 0), i.e. k = 2 d_i 128^i - n
; = (2 d_i - 2^(8 - 7 i + 7 i))... concretely, for P-256 k = d_i 2^253 - n
; = (2 d_i - 16) 2^252 + (2^256 - n) with 2^256 - n < 2^224, so the top
; window of k is 2 d_i - 16 and c = 0, giving d_i = 2 d_i - 16, d_i = 16,
; k = 2^257 - n > 2^256: impossible for any k < R; for P-384 likewise
; d_i = 64 and k = 2^385 - n > 2^384. A = -T means k = 0 mod n, for which
; Z3 = Z1 H = 0 is the right answer (the identity). A = the identity is the
; one case left; the masks handle it. So the result is right for every
; k < R (the C reference, which uses complete formulas, agrees on the
; edge scalars in the tests).

; The comb adds in XYZZ coordinates (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2;
; ZZ = ZZZ = 0 the identity): the mixed addition madd-2008-s costs 8M + 2S,
; a squaring less than Jacobian's, and the end converts to projective
; (X ZZZ : Y ZZ : ZZ ZZZ) with three multiplications.
%define PZZ 96
%define PZZZ 144

; r = p + q (XYZZ + affine), generic case (p != +-q, p not the identity;
; P = 0 gives ZZ3 = ZZZ3 = 0). %1 = r, %2 = p (4 coordinates, r != p),
; %3 = q. Uses slots 0..6.
%macro XMADD 3
    FE_MUL S(0), %3, %2 + PZZ           ; U2 = x ZZ1
    FE_MUL S(1), %3 + ES, %2 + PZZZ     ; S2 = y ZZZ1
    FE_SUB S(0), S(0), %2 + PX          ; P = U2 - X1
    FE_SUB S(1), S(1), %2 + PY          ; R = S2 - Y1
    FE_SQR S(2), S(0)                   ; PP
    FE_MUL S(3), S(0), S(2)             ; PPP
    FE_MUL S(4), %2 + PX, S(2)          ; Q = X1 PP
    FE_MUL S(5), %2 + PY, S(3)          ; Y1 PPP
    FE_MUL %1 + PZZ, %2 + PZZ, S(2)     ; ZZ3 = ZZ1 PP
    FE_MUL %1 + PZZZ, %2 + PZZZ, S(3)   ; ZZZ3 = ZZZ1 PPP
    FE_SQR S(6), S(1)                   ; R^2
    FE_SUB S(6), S(6), S(3)
    FE_ADD S(2), S(4), S(4)             ; 2 Q
    FE_SUB %1 + PX, S(6), S(2)          ; X3 = R^2 - PPP - 2 Q
    FE_SUB S(4), S(4), %1 + PX
    FE_MUL S(4), S(1), S(4)             ; R (Q - X3)
    FE_SUB %1 + PY, S(4), S(5)          ; Y3 = R (Q - X3) - Y1 PPP
%endmacro

; The frame of the comb.
%define C_ACC   0                   ; A: X, Y, ZZ, ZZZ at +0, +48, +96, +144
%define C_OUT   192                 ; A + Q
%define C_Q     384                 ; the selected entry: x, y (2 ES <= 96)
%define C_T     480                 ; XMADD's slots 0..6: 7 * 64
%define C_INF   928                 ; all ones while A is the identity
%define C_NZ    936                 ; all ones if the digit is not 0
%define C_NEG   944                 ; all ones if the digit is negative
%define C_ROW   952                 ; rows left (public)
%define C_R     960                 ; r (public)
%define C_SIZE  968                 ; + the six pushes: rsp 16-aligned

; Two limbs of A (at rsp + %3) = nz ? (inf ? [%2] : OUT (rsp + %1)) : A,
; masks in xmm14 (inf) and xmm15 (nz). Clobbers xmm8-xmm10.
%macro SEL2 3
    movdqu xmm8, [rsp + %1]
    movdqu xmm9, [%2]
    pxor xmm9, xmm8
    pand xmm9, xmm14
    pxor xmm8, xmm9                     ; inf ? entry : OUT
    movdqu xmm10, [rsp + %3]
    pxor xmm8, xmm10
    pand xmm8, xmm15
    pxor xmm8, xmm10                    ; nz ? that : A
    movdqu [rsp + %3], xmm8
%endmacro

; The XMADD slots live at C_T: S(k) is redefined inside the comb.
%macro COMB_BODY 0
    PUSH_CALLEE
    sub rsp, C_SIZE
    mov [rsp + C_R], rdi
    mov qword [rsp + C_ROW], ROWS
    mov qword [rsp + C_INF], -1
    xor eax, eax
%assign j 0
%rep 24
    mov [rsp + C_ACC + 8 * j], rax      ; A = (0, 0, 0, 0), the identity
%assign j j + 1
%endrep
    ; rsi walks the table rows, rdx the digits
    mov rcx, rdx
.row:
    movsx eax, byte [rcx]               ; the digit (secret)
    mov edx, eax
    sar edx, 31                         ; -1 if negative
    movsxd rdx, edx
    mov [rsp + C_NEG], rdx
    xor eax, edx
    sub eax, edx                        ; |d| in 0..64
    xor ebx, ebx
    cmp eax, 1
    sbb rbx, rbx                        ; -1 iff d = 0
    not rbx
    mov [rsp + C_NZ], rbx
    SELECT                              ; Q = entry |d| of the row at rsi (0 if d = 0)
    ; y = -y (0 - y mod p) under the sign mask
    lea rdi, [rel ec_zero]
    FE_SUB rsp + C_OUT, rdi, rsp + C_Q + ES
    mov rdx, [rsp + C_NEG]
%assign j 0
%rep N
    mov rax, [rsp + C_Q + ES + 8 * j]
    mov rbx, [rsp + C_OUT + 8 * j]
    xor rbx, rax
    and rbx, rdx
    xor rax, rbx
    mov [rsp + C_Q + ES + 8 * j], rax
%assign j j + 1
%endrep
    ; OUT = A + Q
%define S(k) rsp + C_T + 64 * (k)
    XMADD rsp + C_OUT, rsp + C_ACC, rsp + C_Q
%define S(k) rsp + 64 * (k)
    ; A = nz ? (inf ? (x, y, 1, 1) : OUT) : A, two limbs at a time (SSE2)
    mov r8, [rsp + C_INF]
    mov r9, [rsp + C_NZ]
    movq xmm14, r8
    punpcklqdq xmm14, xmm14             ; inf mask
    movq xmm15, r9
    punpcklqdq xmm15, xmm15             ; nz mask
    lea r10, [rel ONE]
%assign j 0
%rep N / 2
    SEL2 C_OUT + PX + 16 * j, rsp + C_Q + 16 * j, C_ACC + PX + 16 * j
    SEL2 C_OUT + PY + 16 * j, rsp + C_Q + ES + 16 * j, C_ACC + PY + 16 * j
    SEL2 C_OUT + PZZ + 16 * j, r10 + 16 * j, C_ACC + PZZ + 16 * j
    SEL2 C_OUT + PZZZ + 16 * j, r10 + 16 * j, C_ACC + PZZZ + 16 * j
%assign j j + 1
%endrep
    not r9
    and r8, r9
    mov [rsp + C_INF], r8
    add rsi, 64 * 2 * ES                ; the next row (public)
    inc rcx
    dec qword [rsp + C_ROW]
    jnz .row                            ; ct: public row counter
    ; r = (X ZZZ : Y ZZ : ZZ ZZZ)
    mov rdi, [rsp + C_R]
    FE_MUL rdi + PX, rsp + C_ACC + PX, rsp + C_ACC + PZZZ
    FE_MUL rdi + PY, rsp + C_ACC + PY, rsp + C_ACC + PZZ
    FE_MUL rdi + PZ, rsp + C_ACC + PZZ, rsp + C_ACC + PZZZ
    ; wipe the frame (secret: the point, the entry, the masks)
    pxor xmm0, xmm0
%assign j 0
%rep C_SIZE / 16                    ; the last 8 bytes hold only the pointer r
    movdqa [rsp + 16 * j], xmm0
%assign j j + 1
%endrep
    add rsp, C_SIZE
    POP_CALLEE
    ret
%endmacro

; SSE2 scan: Q = the entry of the row at rsi whose index + 1 is |d| (eax),
; 0 if none. The magnitude is compared with a running counter in four
; dword lanes; every entry is loaded and kept under that mask.
%macro SELECT_SSE2 0
    movd xmm15, eax
    pshufd xmm15, xmm15, 0
    movdqa xmm13, [rel ec_ones32]
    movdqa xmm14, xmm13                 ; candidate index + 1
%assign k 0
%rep ES / 8
    pxor xmm %+ k, xmm %+ k
%assign k k + 1
%endrep
    mov rdx, rsi
    mov ebx, 16                         ; four entries a turn
%%scan:
%rep 4
    movdqa xmm12, xmm14
    pcmpeqd xmm12, xmm15
    paddd xmm14, xmm13
%assign k 0
%rep ES / 8
    movdqa xmm11, [rdx + 16 * k]
    pand xmm11, xmm12
    por xmm %+ k, xmm11
%assign k k + 1
%endrep
    add rdx, 2 * ES
%endrep
    dec ebx
    jnz %%scan                          ; ct: public entry counter
%assign k 0
%rep ES / 8
    movdqa [rsp + C_Q + 16 * k], xmm %+ k
%assign k k + 1
%endrep
%endmacro

; AVX-512 scan: the same with the compare in qword lanes into a mask
; register and a masked register move per entry (every entry is loaded in
; full, unmasked, so the memory access pattern is the same for every d).
%macro SELECT_AVX512 0
    vpbroadcastq zmm15, rax
    vpbroadcastq zmm13, [rel ec_one64]
    vmovdqa64 zmm14, zmm13              ; candidate index + 1
    vpxorq zmm0, zmm0, zmm0
%if ES == 48
    vpxorq ymm1, ymm1, ymm1
%endif
    mov rdx, rsi
    mov ebx, 16                         ; four entries a turn
%%scan:
%assign e 0
%rep 4
    vpcmpeqq k1, zmm14, zmm15
    vpaddq zmm14, zmm14, zmm13
    vmovdqu64 zmm11, [rdx + 2 * ES * e]
    vmovdqa64 zmm0{k1}, zmm11
%if ES == 48
    vmovdqu64 ymm12, [rdx + 2 * ES * e + 64]
    vmovdqa64 ymm1{k1}, ymm12
%endif
%assign e e + 1
%endrep
    add rdx, 8 * ES
    dec ebx
    jnz %%scan                          ; ct: public entry counter
    vmovdqu64 [rsp + C_Q], zmm0
%if ES == 48
    vmovdqu64 [rsp + C_Q + 64], ymm1
%endif
    vzeroupper
%endmacro

    RODATA
ec_ones32: dd 1, 1, 1, 1
ec_one64:  dq 1

FUNC vg_ %+ CURVE %+ _comb_ %+ TIER
    COMB_BODY
ENDFUNC vg_ %+ CURVE %+ _comb_ %+ TIER
