; fe4_macros.asm: GF(2^255-19) arithmetic on 4 x 64-bit limbs as nasm
; macros, for the base (mul/adc) and adx (mulx/adcx/adox) tiers. An
; element is v0 + v1 2^64 + v2 2^128 + v3 2^192, any value below 2^256
; (partially reduced: 2^256 = 38 mod p is folded back, never a full
; reduction). Secret: every operand. The macros are straight-line code
; with no branch and no secret-dependent address.
;
; Operands are effective-address texts, e.g. FE_MUL_ADX rdi, rsi, rcx or
; FE_ADD rsp+64, rsp+96, rsp+128. Register use (clobbered):
;   FE_MUL_ADX/FE_SQR_ADX: rax rbx rbp rdx r8-r15   (never rcx rsi rdi)
;   FE_MUL_BASE: rax rbx rdx r8-r15                 (never rcx rsi rdi rbp;
;                the product alone uses rax rdx r8-r15, REDUCE_BASE rbx)
;   FE_SQR_BASE: rax rbx rbp rdx r8-r15             (never rcx rsi rdi)
;   FE_ADD/FE_SUB/FE_MUL_A24/FE_MUL_A24_ADD: rax rdx r8-r11
;   FE_ADD_B/FE_SUB_B: rax r8-r11
;   FE_ADDSUB_W: rbx rdx r8-r15
;   the wide forms (_RW, _W: the value before its fold) as their
;   products and squares above
;   FE_MUL_A24_ADD_ADX: rax rbx rdx r8-r11
; The result is written only after every input has been read, so the
; destination may alias an input.
%ifndef VG_FE4_MACROS_ASM
%define VG_FE4_MACROS_ASM 1

; Store r8-r11 to the element at %1.
%macro FE_STORE 1
    mov [%1], r8
    mov [%1 + 8], r9
    mov [%1 + 16], r10
    mov [%1 + 24], r11
%endmacro

; The last fold of a product: the value c 2^256 + r8..r11 with a carry
; word c = %1 <= 38 (so below 39 * 2^256) becomes (its bits below 2^255)
; + 19 t, t = its bits 255 and up = 2c + bit 63 of r11 <= 77 (2^255 = 19
; mod p). With bit 63 of r11 cleared first, the sum is below 2^255 +
; 19 * 77 < 2^256: the carry chain cannot leave r11, so no second fold
; (the former "times 38, add, and 38 more on a carry out" took three
; more instructions on the product's critical path). The result is
; below 2^255 + 2^11. Any c below 2^58 folds the same way, to below
; 2^255 + 19 (2c + 1) (FE_MUL_A24_ADD_ADX's c <= 121665). %2 is a zero
; register or 0; clobbers %1 and the flags.
%macro FOLD255 2
    FOLD255_IN %1, %2, r8, r9, r10, r11
%endmacro
; FOLD255_IN c, zero, w0, w1, w2, w3: the same fold of c 2^256 + w0..w3.
%macro FOLD255_IN 6
    add %6, %6                  ; CF = bit 63 of w3 (shld is slow on Zen 4)
    adc %1, %1                  ; t = 2c + that bit
    shr %6, 1                   ; w3 without its bit 63
    imul %1, %1, 19
    add %3, %1
    adc %4, %2
    adc %5, %2
    adc %6, %2                  ; no carry out: w3 was below 2^63
%endmacro

; Fold the 512-bit r8..r15 to 256 bits: L + 38 H (below 39 * 2^256),
; then FOLD255 on its carry word. Result in r8-r11, below 2^255 + 2^11.
%macro REDUCE_ADX 0
    REDUCE_ADX_W
    FOLD255 r12, rbp
%endmacro
; REDUCE_ADX_W: L + 38 H only, the wide value (below 39 * 2^256) left in
; r8-r11 and its carry word r12 (<= 38), unfolded: for FE_ADDSUB_W, which
; folds the sum or difference once instead of the product and then the
; sum (rbp = 0 on exit).
%macro REDUCE_ADX_W 0
    mov edx, 38
    xor ebp, ebp                ; rbp = 0, CF = OF = 0
    mulx rbx, rax, r12
    adcx r8, rax
    adox r9, rbx
    mulx rbx, rax, r13
    adcx r9, rax
    adox r10, rbx
    mulx rbx, rax, r14
    adcx r10, rax
    adox r11, rbx
    mulx r12, rax, r15
    adcx r11, rax
    adox r12, rbp
    adcx r12, rbp               ; r12 = carry word, <= 38
%endmacro

%macro REDUCE_BASE 0
    REDUCE_BASE_W
    xor ebx, ebx
    FOLD255 r12, rbx
%endmacro
; REDUCE_BASE_W: REDUCE_ADX_W's contract (the carry word in r12) with mul.
%macro REDUCE_BASE_W 0
    mov eax, 38
    mul r12
    add r8, rax
    adc rdx, 0
    mov rbx, rdx
    mov eax, 38
    mul r13
    add rax, rbx
    adc rdx, 0
    add r9, rax
    adc rdx, 0
    mov rbx, rdx
    mov eax, 38
    mul r14
    add rax, rbx
    adc rdx, 0
    add r10, rax
    adc rdx, 0
    mov rbx, rdx
    mov eax, 38
    mul r15
    add rax, rbx
    adc rdx, 0
    add r11, rax
    adc rdx, 0                  ; the carry word, <= 38
    mov r12, rdx                ; where REDUCE_ADX_W leaves it (renamed)
%endmacro

; %1 = %2 * %3 (FE_MUL_ADX_R: the same, the result left in r8-r11 and
; not stored, for a caller that adds it to something next)
%macro FE_MUL_ADX 3
    FE_MUL_ADX_R %2, %3
    FE_STORE %1
%endmacro
%macro FE_MUL_ADX_R 2
    FE_MUL_ADX_RW %1, %2
    FOLD255 r12, rbp
%endmacro
; The product left wide (REDUCE_ADX_W) in r8-r12 (FE_MUL_ADX_RW) or
; stored as five words (FE_MUL_ADX_W), for FE_ADDSUB_W.
%macro FE_MUL_ADX_W 3
    FE_MUL_ADX_RW %2, %3
    FE_STORE_W %1
%endmacro
%macro FE_MUL_ADX_RW 2
    mov rdx, [%1]
    mulx r9, r8, [%2]
    mulx r10, rax, [%2 + 8]
    add r9, rax
    mulx r11, rax, [%2 + 16]
    adc r10, rax
    mulx r12, rax, [%2 + 24]
    adc r11, rax
    adc r12, 0

    mov rdx, [%1 + 8]
    xor ebp, ebp
    mulx rbx, rax, [%2]
    adcx r9, rax
    adox r10, rbx
    mulx rbx, rax, [%2 + 8]
    adcx r10, rax
    adox r11, rbx
    mulx rbx, rax, [%2 + 16]
    adcx r11, rax
    adox r12, rbx
    mulx r13, rax, [%2 + 24]
    adcx r12, rax
    adox r13, rbp
    adcx r13, rbp

    mov rdx, [%1 + 16]
    xor ebp, ebp
    mulx rbx, rax, [%2]
    adcx r10, rax
    adox r11, rbx
    mulx rbx, rax, [%2 + 8]
    adcx r11, rax
    adox r12, rbx
    mulx rbx, rax, [%2 + 16]
    adcx r12, rax
    adox r13, rbx
    mulx r14, rax, [%2 + 24]
    adcx r13, rax
    adox r14, rbp
    adcx r14, rbp

    mov rdx, [%1 + 24]
    xor ebp, ebp
    mulx rbx, rax, [%2]
    adcx r11, rax
    adox r12, rbx
    mulx rbx, rax, [%2 + 8]
    adcx r12, rax
    adox r13, rbx
    mulx rbx, rax, [%2 + 16]
    adcx r13, rax
    adox r14, rbx
    mulx r15, rax, [%2 + 24]
    adcx r14, rax
    adox r15, rbp
    adcx r15, rbp

    REDUCE_ADX_W
%endmacro

; %1 = %2^2: the six cross products once, doubled, plus the four squares.
%macro FE_SQR_ADX 2
    FE_SQR_ADX_RW %2
    FOLD255 r12, rbp
    FE_STORE %1
%endmacro
%macro FE_SQR_ADX_W 2
    FE_SQR_ADX_RW %2
    FE_STORE_W %1
%endmacro
; %1^2 left wide in r8-r12 (REDUCE_ADX_W).
%macro FE_SQR_ADX_RW 1
    mov rdx, [%1]
    mulx r10, r9, [%1 + 8]      ; a0 a1 at 1
    mulx r11, rax, [%1 + 16]    ; a0 a2 at 2
    add r10, rax
    mulx r12, rax, [%1 + 24]    ; a0 a3 at 3
    adc r11, rax
    mov rdx, [%1 + 8]
    mulx r13, rax, [%1 + 24]    ; a1 a3 at 4
    adc r12, rax
    mov rdx, [%1 + 16]
    mulx r14, rax, [%1 + 24]    ; a2 a3 at 5
    adc r13, rax
    adc r14, 0
    mov rdx, [%1 + 8]
    mulx rbx, rax, [%1 + 16]    ; a1 a2 at 3
    add r11, rax
    adc r12, rbx
    adc r13, 0
    adc r14, 0                  ; the cross sum is < 2^448: no carry out

    xor ebp, ebp                ; doubling on the CF chain, squares on OF
    mov rdx, [%1]
    mulx rbx, r8, rdx           ; a0^2 at 0
    adcx r9, r9
    adox r9, rbx
    mov rdx, [%1 + 8]
    mulx rbx, rax, rdx          ; a1^2 at 2
    adcx r10, r10
    adox r10, rax
    adcx r11, r11
    adox r11, rbx
    mov rdx, [%1 + 16]
    mulx rbx, rax, rdx          ; a2^2 at 4
    adcx r12, r12
    adox r12, rax
    adcx r13, r13
    adox r13, rbx
    mov rdx, [%1 + 24]
    mulx r15, rax, rdx          ; a3^2 at 6
    adcx r14, r14
    adox r14, rax
    adcx r15, rbp
    adox r15, rbp

    REDUCE_ADX_W
%endmacro

; The base product by columns (product scanning): column k gathers every
; a_i b_j with i + j = k into three words r(8+k), r(9+k), r(10+k), one
; add and two adc a product (the row form needs four add/adc and two
; moves a product, mul clobbering the flags between products); the
; column's low word is then final and the next column starts on its two
; upper words, the new top word cleared first. Uses rax, rdx, r8-r15.
; FE_MUL_COL rL, rM, rH, a-address, b-address: (rL, rM, rH) += a b.
%macro FE_MUL_COL 5
    mov rax, [%4]
    mul qword [%5]
    add %1, rax
    adc %2, rdx
    adc %3, 0
%endmacro

%macro FE_MUL_BASE 3
    FE_MUL_BASE_R %2, %3
    FE_STORE %1
%endmacro
%macro FE_MUL_BASE_R 2
    FE_MUL_BASE_PROD %1, %2
    REDUCE_BASE
%endmacro
; The base product wide (REDUCE_BASE_W) in r8-r12 or stored as five
; words: FE_MUL_ADX_RW's and _W's contracts.
%macro FE_MUL_BASE_RW 2
    FE_MUL_BASE_PROD %1, %2
    REDUCE_BASE_W
%endmacro
%macro FE_MUL_BASE_W 3
    FE_MUL_BASE_RW %2, %3
    FE_STORE_W %1
%endmacro
; The 512-bit product %1 * %2 in r8-r15.
%macro FE_MUL_BASE_PROD 2
    mov rax, [%1]
    mul qword [%2]              ; column 0
    mov r8, rax
    mov r9, rdx
    xor r10d, r10d              ; column 1 in r9, r10, r11
    xor r11d, r11d
    FE_MUL_COL r9, r10, r11, %1, %2 + 8
    FE_MUL_COL r9, r10, r11, %1 + 8, %2
    xor r12d, r12d              ; column 2 in r10, r11, r12
    FE_MUL_COL r10, r11, r12, %1, %2 + 16
    FE_MUL_COL r10, r11, r12, %1 + 8, %2 + 8
    FE_MUL_COL r10, r11, r12, %1 + 16, %2
    xor r13d, r13d              ; column 3
    FE_MUL_COL r11, r12, r13, %1, %2 + 24
    FE_MUL_COL r11, r12, r13, %1 + 8, %2 + 16
    FE_MUL_COL r11, r12, r13, %1 + 16, %2 + 8
    FE_MUL_COL r11, r12, r13, %1 + 24, %2
    xor r14d, r14d              ; column 4
    FE_MUL_COL r12, r13, r14, %1 + 8, %2 + 24
    FE_MUL_COL r12, r13, r14, %1 + 16, %2 + 16
    FE_MUL_COL r12, r13, r14, %1 + 24, %2 + 8
    xor r15d, r15d              ; column 5
    FE_MUL_COL r13, r14, r15, %1 + 16, %2 + 24
    FE_MUL_COL r13, r14, r15, %1 + 24, %2 + 16
    mov rax, [%1 + 24]          ; column 6: the product is < 2^512, no carry out
    mul qword [%2 + 24]
    add r14, rax
    adc r15, rdx
%endmacro

; %1 = %2^2 with mul/adc: the six cross products once (r9..r14), doubled
; by one add chain (the top bit into r15), then the four squares. mul
; clobbers the flags, so the squares' carry chain is parked in rbp across
; each mul (sbb saves it as 0/-1, neg turns it back into CF): 10 mul
; instead of the product's 16 (in a dependent chain ~0.8 of the product's
; time by rows, about that of the product by columns).
%macro FE_SQR_BASE 2
    FE_SQR_BASE_PROD %2
    REDUCE_BASE
    FE_STORE %1
%endmacro
%macro FE_SQR_BASE_W 2
    FE_SQR_BASE_PROD %2
    REDUCE_BASE_W
    FE_STORE_W %1
%endmacro
; The 512-bit square of %1 in r8-r15.
%macro FE_SQR_BASE_PROD 1
    mov rax, [%1]
    mul qword [%1 + 8]          ; a0 a1 at 1
    mov r9, rax
    mov r10, rdx
    mov rax, [%1]
    mul qword [%1 + 16]         ; a0 a2 at 2
    add r10, rax
    adc rdx, 0
    mov r11, rdx
    mov rax, [%1]
    mul qword [%1 + 24]         ; a0 a3 at 3
    add r11, rax
    adc rdx, 0
    mov r12, rdx
    mov rax, [%1 + 8]
    mul qword [%1 + 16]         ; a1 a2 at 3
    add r11, rax
    adc rdx, 0
    mov rbx, rdx
    mov rax, [%1 + 8]
    mul qword [%1 + 24]         ; a1 a3 at 4
    add rax, rbx
    adc rdx, 0
    add r12, rax
    adc rdx, 0
    mov r13, rdx
    mov rax, [%1 + 16]
    mul qword [%1 + 24]         ; a2 a3 at 5
    add r13, rax
    adc rdx, 0
    mov r14, rdx                ; the cross sum is < 2^448: r9..r14
    xor r15d, r15d
    add r9, r9                  ; doubled; bit 448 into r15
    adc r10, r10
    adc r11, r11
    adc r12, r12
    adc r13, r13
    adc r14, r14
    adc r15, r15
    mov rax, [%1]
    mul rax                     ; a0^2 at 0
    mov r8, rax
    mov rbx, rdx
    mov rax, [%1 + 8]
    mul rax                     ; a1^2 at 2
    add r9, rbx
    adc r10, rax
    adc r11, rdx
    sbb rbp, rbp                ; park the carry: 0 or -1
    mov rax, [%1 + 16]
    mul rax                     ; a2^2 at 4
    neg rbp                     ; CF = the parked carry
    adc r12, rax
    adc r13, rdx
    sbb rbp, rbp
    mov rax, [%1 + 24]
    mul rax                     ; a3^2 at 6
    neg rbp
    adc r14, rax
    adc r15, rdx                ; a^2 < 2^512: no carry out
%endmacro

; %1 = %2 + %3
%macro FE_ADD 3
    mov r8, [%2]
    add r8, [%3]
    mov r9, [%2 + 8]
    adc r9, [%3 + 8]
    mov r10, [%2 + 16]
    adc r10, [%3 + 16]
    mov r11, [%2 + 24]
    adc r11, [%3 + 24]
    sbb rax, rax                ; a carry is 2^256 = 38
    and eax, 38
    xor edx, edx
    add r8, rax
    adc r9, rdx
    adc r10, rdx
    adc r11, rdx
    sbb rax, rax                ; again at most once: r8 is then tiny
    and eax, 38
    add r8, rax
    FE_STORE %1
%endmacro

; %1 = %2 - %3
%macro FE_SUB 3
    mov r8, [%2]
    sub r8, [%3]
    mov r9, [%2 + 8]
    sbb r9, [%3 + 8]
    mov r10, [%2 + 16]
    sbb r10, [%3 + 16]
    mov r11, [%2 + 24]
    sbb r11, [%3 + 24]
    sbb rax, rax                ; a borrow added 2^256 = 38: take it back
    and eax, 38
    xor edx, edx
    sub r8, rax
    sbb r9, rdx
    sbb r10, rdx
    sbb r11, rdx
    sbb rax, rax                ; again at most once: r8 is then near 2^64
    and eax, 38
    sub r8, rax
    FE_STORE %1
%endmacro

; The one fold of a sum or difference whose second operand is below
; 2^256 - 38 (every product and square: FOLD255 leaves them below 2^255 +
; 2^11), on the carry or borrow of the chain just ended into %1..%4: a
; carry out is 2^256 = 38 added back, and cannot carry again (the sum was
; below 2^257 - 38); a borrow added 2^256, taken back as 38, and cannot
; borrow again (f - g + 2^256 >= 2^256 - g > 38). Clobbers rax.
%macro FOLD_CARRY_ONCE 4
    sbb rax, rax                ; a carry is 2^256 = 38
    and eax, 38
    add %1, rax
    adc %2, 0
    adc %3, 0
    adc %4, 0                   ; no carry: the second operand < 2^256 - 38
%endmacro
%macro FOLD_BORROW_ONCE 4
    sbb rax, rax                ; a borrow added 2^256 = 38: take it back
    and eax, 38
    sub %1, rax
    sbb %2, 0
    sbb %3, 0
    sbb %4, 0                   ; no borrow: the second operand < 2^256 - 38
%endmacro

; %1 = %2 + %3 and %1 = %2 - %3 when %3 is below 2^256 - 38, as every
; product and square is (FOLD255: below 2^255 + 2^11): then one fold is
; enough. The sum is below 2^257 - 38, so after a carry (2^256 = 38
; added back) it is below 2^256 - 38 + 38: no second carry. A borrow
; leaves f - g + 2^256 >= 2^256 - g > 38, so taking 38 back cannot borrow
; again. The ladder's and the comb's additions, whose second operands are
; all products; the exported vg_fe4_add/sub keep the general form.
%macro FE_ADD_B 3
    mov r8, [%2]
    add r8, [%3]
    mov r9, [%2 + 8]
    adc r9, [%3 + 8]
    mov r10, [%2 + 16]
    adc r10, [%3 + 16]
    mov r11, [%2 + 24]
    adc r11, [%3 + 24]
    FOLD_CARRY_ONCE r8, r9, r10, r11
    FE_STORE %1
%endmacro
%macro FE_SUB_B 3
    mov r8, [%2]
    sub r8, [%3]
    mov r9, [%2 + 8]
    sbb r9, [%3 + 8]
    mov r10, [%2 + 16]
    sbb r10, [%3 + 16]
    mov r11, [%2 + 24]
    sbb r11, [%3 + 24]
    FOLD_BORROW_ONCE r8, r9, r10, r11
    FE_STORE %1
%endmacro

; Store r12-r15 to the element at %1.
%macro FE_STORE_HI 1
    mov [%1], r12
    mov [%1 + 8], r13
    mov [%1 + 16], r14
    mov [%1 + 24], r15
%endmacro

; Store the wide value r8-r11, r12 (a product before its fold) to the
; five words at %1.
%macro FE_STORE_W 1
    FE_STORE %1
    mov [%1 + 32], r12
%endmacro

; With P wide in r8-r12 (a product before its fold: P < 39 2^256, carry
; word r12 <= 38) and M the wide value at %1 (five words, the same
; bounds): r8-r11 = M + P and r12-r15 = M - P, each folded once at 2^255
; (FOLD255), neither stored. The ladder's sums and differences of two
; products and the comb's (of two products, and of a product and 2 Z1,
; whose top word is 0): the products' own folds (an imul and a carry
; chain each, on the ladder's critical path) and the sums' carry folds
; are this one fold. The sum is below 78 2^256: t <= 155, so below
; 2^255 + 2^12. The difference is taken as M - P + 2^7 p (2^262 - 2432,
; a multiple of p), which is positive (2^262 > 2432 + 39 2^256) and below
; 103 2^256: t <= 205, below 2^255 + 2^12. Every output is below
; 2^256 - 38 (FE_ADD_B's second operand). The address must not use rbx,
; rdx or r8-r15. Clobbers rbx, rdx, r8-r15.
%macro FE_ADDSUB_W 1
    mov rbx, r12                ; P's carry word
    mov rdx, [%1 + 32]          ; M + 2^262 - 2432 first: off the chain
    mov r12, [%1]               ; that waits for P
    mov r13, [%1 + 8]
    mov r14, [%1 + 16]
    mov r15, [%1 + 24]
    sub r12, 2432
    sbb r13, 0
    sbb r14, 0
    sbb r15, 0
    sbb rdx, -64                ; + 2^262 (64 2^256), less the borrow
    sub r12, r8
    sbb r13, r9
    sbb r14, r10
    sbb r15, r11
    sbb rdx, rbx                ; the difference's carry word, 24..102
    add r8, [%1]
    adc r9, [%1 + 8]
    adc r10, [%1 + 16]
    adc r11, [%1 + 24]
    adc rbx, [%1 + 32]          ; the sum's carry word, <= 77
    FOLD255_IN rbx, 0, r8, r9, r10, r11
    FOLD255_IN rdx, 0, r12, r13, r14, r15
%endmacro

; %1 = %2 * 121665 + %3 with mulx (adx tier): the multiplier is set once
; (mul needs it reloaded into rax per limb) and the carry word folded at
; 2^255 as in FOLD255, so no second fold: c <= 121665 (the value is below
; 121666 2^256), t = 2c + 1 < 2^18, the result below 2^255 + 2^23: for a
; product's operand only (the ladder's AA + a24 E), not for FE_ADD_B's
; second operand. The addresses must not use rax, rbx, rdx or r8-r11.
%macro FE_MUL_A24_ADD_ADX 3
    mov edx, 121665
    mulx r9, r8, [%2]
    mulx r11, r10, [%2 + 16]
    mulx rbx, rax, [%2 + 8]
    add r9, rax
    adc r10, rbx
    adc r11, 0
    mulx rdx, rax, [%2 + 24]
    add r11, rax
    adc rdx, 0
    add r8, [%3]
    adc r9, [%3 + 8]
    adc r10, [%3 + 16]
    adc r11, [%3 + 24]
    adc rdx, 0                  ; rdx = carry word <= 121665
    FOLD255 rdx, 0
    FE_STORE %1
%endmacro

; %1 = %2 * 121665 ((A - 2)/4 of curve25519), with mul (every tier).
%macro FE_MUL_A24 2
    mov eax, 121665
    mul qword [%2]
    mov r8, rax
    mov r9, rdx
    mov eax, 121665
    mul qword [%2 + 16]
    mov r10, rax
    mov r11, rdx
    mov eax, 121665
    mul qword [%2 + 8]
    add r9, rax
    adc r10, rdx
    adc r11, 0
    mov eax, 121665
    mul qword [%2 + 24]
    add r11, rax
    adc rdx, 0                  ; rdx = carry word < 2^17
    imul rdx, rdx, 38
    add r8, rdx
    mov edx, 0
    adc r9, rdx
    adc r10, rdx
    adc r11, rdx
    sbb rax, rax
    and eax, 38
    add r8, rax
    FE_STORE %1
%endmacro

; %1 = %2 * 121665 + %3: the ladder's AA + a24 E in one pass, the sum
; added to the unfolded product (below 2^273) so one fold of its top word
; serves both (FE_MUL_A24 then FE_ADD folded twice and stored between).
; The addresses must not use rax, rdx or r8-r11.
%macro FE_MUL_A24_ADD 3
    mov eax, 121665
    mul qword [%2]
    mov r8, rax
    mov r9, rdx
    mov eax, 121665
    mul qword [%2 + 16]
    mov r10, rax
    mov r11, rdx
    mov eax, 121665
    mul qword [%2 + 8]
    add r9, rax
    adc r10, rdx
    adc r11, 0
    mov eax, 121665
    mul qword [%2 + 24]
    add r11, rax
    adc rdx, 0
    add r8, [%3]
    adc r9, [%3 + 8]
    adc r10, [%3 + 16]
    adc r11, [%3 + 24]
    adc rdx, 0                  ; rdx = carry word < 2^17 + 1
    imul rdx, rdx, 38
    add r8, rdx
    mov edx, 0
    adc r9, rdx
    adc r10, rdx
    adc r11, rdx
    sbb rax, rax                ; a carry left the value below 2^23: once
    and eax, 38
    add r8, rax
    FE_STORE %1
%endmacro

%endif
