; ec_macros.asm: field and scalar arithmetic of P-256 and P-384 as nasm
; macros, for the base (mul/adc) and adx (mulx/adcx/adox) tiers.
; Elements are little-endian 64-bit limbs (4 or 6), in Montgomery form
; (x R mod m, R = 2^256 or 2^384) and fully reduced (< m) between
; operations. Secret: every operand. The macros are straight-line code:
; no branch, no secret-dependent address.
;
; Operands are effective-address texts (rdi, rsp + 64, rsi + 48, ...),
; built only from rdi, rsi, rcx and rsp, which no macro clobbers. Every
; macro may clobber rax, rbx, rdx, rbp and r8-r15, and writes its
; destination only after its last read of the inputs, so the destination
; may alias an input.
;
; Contracts:
;   P256_MUL/SQR_{ADX,BASE}, MONT_{ADX,BASE}: a, b < m give r = a b R^-1
;     mod m < m. (With any a, b < R the result is below R: one more
;     CSUB reduces it; the exported functions do that.)
;   P256_ADD/SUB, P384_ADD/SUB: a, b < p give a +- b mod p.
%ifndef VG_EC_MACROS_ASM
%define VG_EC_MACROS_ASM 1

; The moduli and the Montgomery constants -m^-1 mod 2^64 of the scalars
; (the field moduli need none: -p^-1 = 1 for p256, 2^32 + 1 for p384).
; Local to each object that includes this file. Public.
    RODATA
ec_p256_p:  dq 0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001
ec_p256_n:  dq 0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000
ec_p256_n0: dq 0xccd1c8aaee00bc4f
ec_p384_p:  dq 0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe
            dq 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
ec_p384_n:  dq 0xecec196accc52973, 0x581a0db248b0a77a, 0xc7634d81f4372ddf
            dq 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
ec_p384_n0: dq 0x6ed46089e88fdc45
; R mod p (1 in Montgomery form) and zero, for the point functions.
ec_p256_one: dq 0x0000000000000001, 0xffffffff00000000, 0xffffffffffffffff, 0x00000000fffffffe
ec_p384_one: dq 0xffffffff00000001, 0x00000000ffffffff, 0x0000000000000001, 0, 0, 0
ec_zero:     dq 0, 0, 0, 0, 0, 0

; ---------------------------------------------------------------------
; Limb helpers

; STORE4/STORE6 dst, registers...: the limbs to memory.
%macro STORE4 5
    mov [%1], %2
    mov [%1 + 8], %3
    mov [%1 + 16], %4
    mov [%1 + 24], %5
%endmacro

; CSUB_MEM n, dst, mod, top: the n limbs in MA0.. with a top word (a
; register holding 0 or 1, or 0 when there is none) are t; store t at
; dst, then dst = t - mod unless that borrows (t < mod): t stays. The
; subtraction runs in the registers, the kept value comes back from
; memory by cmov, so no second register set is needed.
%macro CSUB_MEM 4
%assign %%j 0
%rep %1
    mov [%2 + 8 * %%j], MA%[%%j]
%assign %%j %%j + 1
%endrep
    sub MA0, [rel %3]
%assign %%j 1
%rep %1 - 1
    sbb MA%[%%j], [rel %3 + 8 * %%j]
%assign %%j %%j + 1
%endrep
%ifnidn %4, 0
    sbb %4, 0                   ; CF = 1 iff t < mod
%endif
%assign %%j 0
%rep %1
    cmovc MA%[%%j], [%2 + 8 * %%j]
    mov [%2 + 8 * %%j], MA%[%%j]
%assign %%j %%j + 1
%endrep
%endmacro

; P256_CSUB dst, top: the 4 words in r8-r11 with a top word (a register
; holding 0 or 1) are t; dst = t - p unless that borrows, else t, in
; registers (the copies in rbx, rbp, rdx, r12; r13 takes p's words 1 and
; 3), one store. Clobbers rbx, rbp, rdx, r12, r13 and the top register.
%macro P256_CSUB 2
    mov rbx, r8
    mov rbp, r9
    mov rdx, r10
    mov r12, r11
    sub r8, -1                  ; p0 = 2^64 - 1
    mov r13d, 0xffffffff
    sbb r9, r13                 ; p1
    sbb r10, 0                  ; p2
    mov r13, 0xffffffff00000001
    sbb r11, r13                ; p3
    sbb %2, 0                   ; CF: t < p, keep t
    cmovc r8, rbx
    cmovc r9, rbp
    cmovc r10, rdx
    cmovc r11, r12
    STORE4 %1, r8, r9, r10, r11
%endmacro

; CSUB_AT n, dst, mod: dst = dst - mod if dst >= mod (a result below R
; that may still exceed mod: the exported multiplies' second step).
%macro CSUB_AT 3
    MA_RESET
%assign %%j 0
%rep %1
    mov MA%[%%j], [%2 + 8 * %%j]
%assign %%j %%j + 1
%endrep
    CSUB_MEM %1, %2, %3, 0
%endmacro

; ---------------------------------------------------------------------
; The accumulator of the word-by-word Montgomery multiplication: MA0..MA7
; name r8..r15 in a rotating order (MA_ROT drops the low word, which the
; reduction zeroed, to the top: no moves).
%macro MA_RESET 0
%xdefine MA0 r8
%xdefine MA1 r9
%xdefine MA2 r10
%xdefine MA3 r11
%xdefine MA4 r12
%xdefine MA5 r13
%xdefine MA6 r14
%xdefine MA7 r15
%endmacro

; MA_ROT n: MA0 <- MA1, ..., MA[n] <- MA[n+1], MA[n+1] <- MA0.
%macro MA_ROT 1
%xdefine MA_T MA0
%assign %%j 0
%rep %1 + 1
%assign %%k %%j + 1
%xdefine MA%[%%j] MA%[%%k]
%assign %%j %%j + 1
%endrep
%xdefine MA%[%%j] MA_T
%endmacro

; MONT_U reg, umode, m0inv: reg = MA0 (-m^-1) mod 2^64, from MA0 (reg
; already holds a copy of MA0). umode 0: -m^-1 = 1; 1: 2^32 + 1 (p384);
; 2: the constant at m0inv.
%macro MONT_U 3
%if %2 == 1
    shl %1, 32
    add %1, MA0
%elif %2 == 2
    imul %1, [rel %3]
%endif
%endmacro

; MONT_ADX n, dst, a, b, mod, umode, m0inv: dst = a b R^-1 mod m, n limbs,
; by rows (CIOS): t += a_i b (low halves on the CF chain, high halves on
; the OF chain), then t = (t + u m) / 2^64. With a, b < m, t < 2m after
; each row: n limbs and a top bit in MA[n]; MA[n+1] catches the carries
; within a row.
%macro MONT_ADX 7
    MA_RESET
    xor eax, eax
%assign %%j 0
%rep %1 + 2
    mov MA%[%%j], rax
%assign %%j %%j + 1
%endrep
%assign %%i 0
%rep %1
    mov rdx, [%3 + 8 * %%i]
    xor eax, eax                ; CF = OF = 0
%assign %%j 0
%rep %1
%assign %%k %%j + 1
    mulx rbx, rax, [%4 + 8 * %%j]
    adcx MA%[%%j], rax
    adox MA%[%%k], rbx
%assign %%j %%j + 1
%endrep
%assign %%k %1 + 1
    adcx MA%[%1], MA%[%%k]      ; MA[n+1] is 0 here
    adox MA%[%%k], MA%[%%k]     ; = OF
    adc MA%[%%k], 0             ; + the CF of MA[n]

    mov rdx, MA0
    MONT_U rdx, %6, %7
    xor eax, eax
%assign %%j 0
%rep %1
%assign %%k %%j + 1
    mulx rbx, rax, [rel %5 + 8 * %%j]
    adcx MA%[%%j], rax          ; MA0 becomes 0 (the choice of u)
    adox MA%[%%k], rbx
%assign %%j %%j + 1
%endrep
%assign %%k %1 + 1
    adcx MA%[%1], MA0
    adox MA%[%%k], MA0
    adc MA%[%%k], 0
    MA_ROT %1
%assign %%i %%i + 1
%endrep
    CSUB_MEM %1, %2, %5, MA%[%1]
%endmacro

; MONT_ADX_P384 dst, a, b: MONT_ADX 6 for p384, the reduction half of
; each row by P384_RED_WIN (no multiplication) on MA0..MA7; MA0 is then
; cleared (the next row's top word). rbp = 32.
%macro MONT_ADX_P384 3
    MA_RESET
    xor eax, eax
%assign %%j 0
%rep 8
    mov MA%[%%j], rax
%assign %%j %%j + 1
%endrep
    mov ebp, 32
%assign %%i 0
%rep 6
    mov rdx, [%2 + 8 * %%i]
    xor eax, eax                ; CF = OF = 0
%assign %%j 0
%rep 6
%assign %%k %%j + 1
    mulx rbx, rax, [%3 + 8 * %%j]
    adcx MA%[%%j], rax
    adox MA%[%%k], rbx
%assign %%j %%j + 1
%endrep
    adcx MA6, MA7               ; MA7 is 0 here
    adox MA7, MA7               ; = OF
    adc MA7, 0                  ; + the CF of MA6
    P384_RED_WIN MA0, MA1, MA2, MA3, MA4, MA5, MA6, MA7, rbp
    xor MA0, MA0                ; the next row's top word
    MA_ROT 6
%assign %%i %%i + 1
%endrep
    CSUB_MEM 6, %1, ec_p384_p, MA6
%endmacro

; MONT_BASE_P384 dst, a, b: MONT_BASE 6 for p384 with the multiplication-
; free reduction step (P384_RED_WIN's arithmetic without shrx: the carry
; e0 is kept as a mask and the add chain runs last, all modulo 2^512).
%macro MONT_BASE_P384 3
    MA_RESET
    xor eax, eax
%assign %%j 0
%rep 8
    mov MA%[%%j], rax
%assign %%j %%j + 1
%endrep
%assign %%i 0
%rep 6
    mov rbp, [%2 + 8 * %%i]
    MONT_BASE_ROW 6, %3, 0
    mov rdx, MA0
    shl rdx, 32                 ; a
    mov rax, rdx
    add rdx, MA0                ; u, CF = e0
    sbb rbp, rbp                ; -e0
    mov rbx, rdx
    shr rbx, 32                 ; ah
    sub MA1, rax
    sbb MA2, rdx
    sbb MA3, 0
    sbb MA4, 0
    sbb MA5, 0
    sbb MA6, 0
    sbb MA7, 0
    sub MA2, rbx
    sbb MA3, 0
    sbb MA4, 0
    sbb MA5, 0
    sbb MA6, 0
    sbb MA7, 0
    neg rbp                     ; CF = e0
    adc MA1, rbx
    adc MA2, 0
    adc MA3, 0
    adc MA4, 0
    adc MA5, 0
    adc MA6, rdx                ; + u 2^384
    adc MA7, 0
    xor MA0, MA0                ; the next row's top word
    MA_ROT 6
%assign %%i %%i + 1
%endrep
    CSUB_MEM 6, %1, ec_p384_p, MA6
%endmacro

; MONT_BASE: MONT_ADX with mul/adc (one carry chain; rbp holds the
; multiplier word, rbx the running high half).
%macro MONT_BASE 7
    MA_RESET
    xor eax, eax
%assign %%j 0
%rep %1 + 2
    mov MA%[%%j], rax
%assign %%j %%j + 1
%endrep
%assign %%i 0
%rep %1
    mov rbp, [%3 + 8 * %%i]
    MONT_BASE_ROW %1, %4, 0
    mov rbp, MA0
    MONT_U rbp, %6, %7
    MONT_BASE_ROW %1, %5, 1
    MA_ROT %1
%assign %%i %%i + 1
%endrep
    CSUB_MEM %1, %2, %5, MA%[%1]
%endmacro

; t += rbp * v (v at address %2, rip-relative if %3), n = %1 limbs.
%macro MONT_BASE_ROW 3
%assign %%j 0
%rep %1
%if %3
    mov rax, [rel %2 + 8 * %%j]
%else
    mov rax, [%2 + 8 * %%j]
%endif
    mul rbp
%if %%j > 0
    add rax, rbx
    adc rdx, 0
%endif
    add MA%[%%j], rax
    adc rdx, 0
    mov rbx, rdx
%assign %%j %%j + 1
%endrep
%assign %%k %1 + 1
    add MA%[%1], rbx
    adc MA%[%%k], 0
%endmacro

; ---------------------------------------------------------------------
; P-256 field: p = 2^256 - 2^224 + 2^192 + 2^96 - 1. The product lands
; in r8-r15; the low half is then reduced word by word: with u = t_0
; (-p^-1 = 1), (t + u p) / 2^64 adds u 2^32 at word 0 and u p3 at word 2
; (u p0 + t_0 = u 2^64 carries u, and u p1 + u = u 2^32), where
; p3 = 2^64 - 2^32 + 1 makes u p3 = (u - (u >> 32) - b) 2^64 + (u - (u << 32))
; with b the borrow of the low part: shifts and subtractions, no multiply.
; Each step keeps the 4-word window below 2^256, and after four the window
; y = (t_lo + U p) / 2^256 <= p; then z = t_hi + y < 2p (a, b < p) and one
; conditional subtraction finishes.

; One reduction step on the window %1..%4 (%1 = u); the window becomes
; %2, %3, %4, %1. Clobbers rax, rbx, rdx.
%macro P256_RED1 4
    mov rax, %1
    shl rax, 32                 ; u << 32 (low word of u 2^32)
    mov rbx, %1
    shr rbx, 32                 ; u >> 32 (its high word)
    mov rdx, %1
    sub rdx, rax                ; low word of u p3, CF = borrow
    sbb %1, rbx                 ; high word of u p3
    add %2, rax
    adc %3, rbx
    adc %4, rdx
    adc %1, 0
%endmacro

; Reduce r8..r15 and store at %1.
%macro P256_REDUCE 1
    P256_RED1 r8, r9, r10, r11
    P256_RED1 r9, r10, r11, r8
    P256_RED1 r10, r11, r8, r9
    P256_RED1 r11, r8, r9, r10
    xor eax, eax
    add r8, r12
    adc r9, r13
    adc r10, r14
    adc r11, r15
    adc rax, 0
    P256_CSUB %1, rax
%endmacro

; The 512-bit product of the elements at %1 and %2 in r8..r15 (adx).
%macro P256_PROD_ADX 2
    mov rdx, [%1]
    mulx r9, r8, [%2]
    mulx r10, rax, [%2 + 8]
    add r9, rax
    mulx r11, rax, [%2 + 16]
    adc r10, rax
    mulx r12, rax, [%2 + 24]
    adc r11, rax
    adc r12, 0
    P256_ROW_ADX %1 + 8, %2, r9, r10, r11, r12, r13
    P256_ROW_ADX %1 + 16, %2, r10, r11, r12, r13, r14
    P256_ROW_ADX %1 + 24, %2, r11, r12, r13, r14, r15
%endmacro

; %3..%6 += [%1] * b (four words at %2), the top word into %7.
%macro P256_ROW_ADX 7
    mov rdx, [%1]
    xor ebp, ebp
    mulx rbx, rax, [%2]
    adcx %3, rax
    adox %4, rbx
    mulx rbx, rax, [%2 + 8]
    adcx %4, rax
    adox %5, rbx
    mulx rbx, rax, [%2 + 16]
    adcx %5, rax
    adox %6, rbx
    mulx %7, rax, [%2 + 24]
    adcx %6, rax
    adox %7, rbp
    adcx %7, rbp
%endmacro

; The square of the element at %1 in r8..r15 (adx): the six cross
; products once, doubled on the CF chain, the four squares on the OF one.
%macro P256_SQPROD_ADX 1
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
    adc r14, 0                  ; the cross sum is below 2^448
    xor ebp, ebp
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
%endmacro

; The 512-bit product in r8..r15 with mul (base).
%macro P256_PROD_BASE 2
    mov rax, [%1]
    mul qword [%2]
    mov r8, rax
    mov r9, rdx
    mov rax, [%1]
    mul qword [%2 + 8]
    add r9, rax
    adc rdx, 0
    mov r10, rdx
    mov rax, [%1]
    mul qword [%2 + 16]
    add r10, rax
    adc rdx, 0
    mov r11, rdx
    mov rax, [%1]
    mul qword [%2 + 24]
    add r11, rax
    adc rdx, 0
    mov r12, rdx
    P256_ROW_BASE %1 + 8, %2, r9, r10, r11, r12, r13
    P256_ROW_BASE %1 + 16, %2, r10, r11, r12, r13, r14
    P256_ROW_BASE %1 + 24, %2, r11, r12, r13, r14, r15
%endmacro

%macro P256_ROW_BASE 7
    mov rax, [%1]
    mul qword [%2]
    add %3, rax
    adc rdx, 0
    mov rbx, rdx
    mov rax, [%1]
    mul qword [%2 + 8]
    add rax, rbx
    adc rdx, 0
    add %4, rax
    adc rdx, 0
    mov rbx, rdx
    mov rax, [%1]
    mul qword [%2 + 16]
    add rax, rbx
    adc rdx, 0
    add %5, rax
    adc rdx, 0
    mov rbx, rdx
    mov rax, [%1]
    mul qword [%2 + 24]
    add rax, rbx
    adc rdx, 0
    add %6, rax
    adc rdx, 0
    mov %7, rdx
%endmacro

; The square with mul: the six cross products, doubled, plus the squares.
%macro P256_SQPROD_BASE 1
    mov rbp, [%1]
    mov rax, [%1 + 8]
    mul rbp                     ; a0 a1 at 1
    mov r9, rax
    mov r10, rdx
    mov rax, [%1 + 16]
    mul rbp                     ; a0 a2 at 2
    add r10, rax
    adc rdx, 0
    mov r11, rdx
    mov rax, [%1 + 24]
    mul rbp                     ; a0 a3 at 3
    add r11, rax
    adc rdx, 0
    mov r12, rdx
    mov rbp, [%1 + 8]
    mov rax, [%1 + 16]
    mul rbp                     ; a1 a2 at 3
    add r11, rax
    adc rdx, 0
    mov rbx, rdx
    mov rax, [%1 + 24]
    mul rbp                     ; a1 a3 at 4
    add rax, rbx
    adc rdx, 0
    add r12, rax
    adc rdx, 0
    mov r13, rdx
    mov rax, [%1 + 16]
    mul qword [%1 + 24]         ; a2 a3 at 5
    add r13, rax
    adc rdx, 0
    mov r14, rdx
    xor r15d, r15d              ; double the cross sum (< 2^448)
    add r9, r9
    adc r10, r10
    adc r11, r11
    adc r12, r12
    adc r13, r13
    adc r14, r14
    adc r15, 0
    mov rax, [%1]
    mul rax
    mov r8, rax
    mov rbx, rdx
    mov rax, [%1 + 8]
    mul rax
    add r9, rbx
    adc r10, rax
    adc rdx, 0
    mov rbx, rdx
    mov rax, [%1 + 16]
    mul rax
    add r11, rbx
    adc r12, rax
    adc rdx, 0
    mov rbx, rdx
    mov rax, [%1 + 24]
    mul rax
    add r13, rbx
    adc r14, rax
    adc r15, rdx
%endmacro

%macro P256_MUL_ADX 3
    P256_PROD_ADX %2, %3
    P256_REDUCE %1
%endmacro
%macro P256_SQR_ADX 2
    P256_SQPROD_ADX %2
    P256_REDUCE %1
%endmacro
%macro P256_MUL_BASE 3
    P256_PROD_BASE %2, %3
    P256_REDUCE %1
%endmacro
%macro P256_SQR_BASE 2
    P256_SQPROD_BASE %2
    P256_REDUCE %1
%endmacro

; %1 = %2 + %3 mod p (a, b < p: the sum is below 2p).
%macro P256_ADD 3
    MA_RESET
    xor eax, eax
    mov r8, [%2]
    add r8, [%3]
    mov r9, [%2 + 8]
    adc r9, [%3 + 8]
    mov r10, [%2 + 16]
    adc r10, [%3 + 16]
    mov r11, [%2 + 24]
    adc r11, [%3 + 24]
    adc rax, 0
    P256_CSUB %1, rax
%endmacro

; %1 = %2 - %3 mod p: subtract, then add p under the borrow mask
; (p & mask: words mask, mask >> 32, 0 and -(mask >> 32)).
%macro P256_SUB 3
    mov r8, [%2]
    sub r8, [%3]
    mov r9, [%2 + 8]
    sbb r9, [%3 + 8]
    mov r10, [%2 + 16]
    sbb r10, [%3 + 16]
    mov r11, [%2 + 24]
    sbb r11, [%3 + 24]
    sbb rax, rax                ; all ones on a borrow
    mov edx, eax                ; p1 & mask
    mov rbx, rdx
    neg rbx                     ; p3 & mask
    add r8, rax
    adc r9, rdx
    adc r10, 0
    adc r11, rbx
    STORE4 %1, r8, r9, r10, r11
%endmacro

; ---------------------------------------------------------------------
; P-384 field: p = 2^384 - 2^128 - 2^96 + 2^32 - 1, the generic rows with
; u = t_0 (2^32 + 1).
%macro P384_MUL_ADX 3
    MONT_ADX_P384 %1, %2, %3
%endmacro
; The square with adx: the 15 cross products once (rows of mulx on the
; CF/OF chains), then one pass doubling them (CF chain) and adding the six
; squares (OF chain): c = a^2 in 12 words, the low six in r8-r13 and the
; high six in the red zone below rsp (these functions call nothing, so the
; 128 bytes below rsp are theirs). Then the low half is reduced word by
; word in a rotating window (u = c_i (2^32 + 1)); the window stays below
; 2^384, so nothing carries out of it, and y = (c_lo + U p) / 2^384 <= p;
; z = c_hi + y < 2p for a < p, and one conditional subtraction finishes.
; 21 products and 36 for the reduction instead of 72. Uses rax, rbx, rbp,
; rdx, r8-r15 and [rsp - 96, rsp).
%define SQT(k) rsp - 96 + 8 * (k)
%macro P384_SQR_ADX 2
    mov rdx, [%2]                       ; row 0: a0 a1..a5 at 1..6
    mulx r9, r8, [%2 + 8]
    mulx r10, rax, [%2 + 16]
    add r9, rax
    mulx r11, rax, [%2 + 24]
    adc r10, rax
    mulx r12, rax, [%2 + 32]
    adc r11, rax
    mulx r13, rax, [%2 + 40]
    adc r12, rax
    adc r13, 0
    mov rdx, [%2 + 8]                   ; row 1: a1 a2..a5 at 3..7
    xor ebx, ebx
    mulx rbp, rax, [%2 + 16]
    adcx r10, rax
    adox r11, rbp
    mulx rbp, rax, [%2 + 24]
    adcx r11, rax
    adox r12, rbp
    mulx rbp, rax, [%2 + 32]
    adcx r12, rax
    adox r13, rbp
    mulx r14, rax, [%2 + 40]
    adcx r13, rax
    adox r14, rbx
    adcx r14, rbx
    mov [SQT(1)], r8                    ; words 1, 2 are final
    mov [SQT(2)], r9
    mov rdx, [%2 + 16]                  ; row 2: a2 a3..a5 at 5..8
    xor ebx, ebx
    mulx rbp, rax, [%2 + 24]
    adcx r12, rax
    adox r13, rbp
    mulx rbp, rax, [%2 + 32]
    adcx r13, rax
    adox r14, rbp
    mulx r15, rax, [%2 + 40]
    adcx r14, rax
    adox r15, rbx
    adcx r15, rbx
    mov [SQT(3)], r10
    mov [SQT(4)], r11
    mov rdx, [%2 + 24]                  ; row 3: a3 a4, a5 at 7..9
    xor ebx, ebx
    mulx rbp, rax, [%2 + 32]
    adcx r14, rax
    adox r15, rbp
    mulx r8, rax, [%2 + 40]
    adcx r15, rax
    adox r8, rbx
    adcx r8, rbx
    mov [SQT(5)], r12
    mov [SQT(6)], r13
    mov rdx, [%2 + 32]                  ; row 4: a4 a5 at 9, 10
    mulx r9, rax, [%2 + 40]
    add r8, rax
    adc r9, 0
    mov [SQT(7)], r14
    mov [SQT(8)], r15
    mov [SQT(9)], r8
    mov [SQT(10)], r9

    xor ebx, ebx                        ; double (CF chain), add the squares (OF)
    mov rdx, [%2]
    mulx rbp, r8, rdx                   ; c0
    mov r9, [SQT(1)]
    adcx r9, r9
    adox r9, rbp                        ; c1
    mov rdx, [%2 + 8]
    mulx rbp, rax, rdx
    mov r10, [SQT(2)]
    adcx r10, r10
    adox r10, rax
    mov r11, [SQT(3)]
    adcx r11, r11
    adox r11, rbp
    mov rdx, [%2 + 16]
    mulx rbp, rax, rdx
    mov r12, [SQT(4)]
    adcx r12, r12
    adox r12, rax
    mov r13, [SQT(5)]
    adcx r13, r13
    adox r13, rbp                       ; c5
    mov rdx, [%2 + 24]
    mulx rbp, rax, rdx
    P384_SQ_HI 6, rax
    P384_SQ_HI 7, rbp
    mov rdx, [%2 + 32]
    mulx rbp, rax, rdx
    P384_SQ_HI 8, rax
    P384_SQ_HI 9, rbp
    mov rdx, [%2 + 40]
    mulx rbp, rax, rdx
    P384_SQ_HI 10, rax
    mov r14, rbx                        ; word 11 has no cross product
    adcx r14, rbx
    adox r14, rbp
    mov [SQT(11)], r14

    mov r14d, 32
    P384_SQ_RED2 r8, r9, r10, r11, r12, r13
    P384_SQ_RED2 r9, r10, r11, r12, r13, r8
    P384_SQ_RED2 r10, r11, r12, r13, r8, r9
    P384_SQ_RED2 r11, r12, r13, r8, r9, r10
    P384_SQ_RED2 r12, r13, r8, r9, r10, r11
    P384_SQ_RED2 r13, r8, r9, r10, r11, r12
    xor eax, eax
    add r8, [SQT(6)]
    adc r9, [SQT(7)]
    adc r10, [SQT(8)]
    adc r11, [SQT(9)]
    adc r12, [SQT(10)]
    adc r13, [SQT(11)]
    adc rax, 0
    MA_RESET
    CSUB_MEM 6, %1, ec_p384_p, rax
%endmacro

; Word %1 of the square: 2 cross + %2 (+ the chains' carries), stored.
%macro P384_SQ_HI 2
    mov r14, [SQT(%1)]
    adcx r14, r14
    adox r14, %2
    mov [SQT(%1)], r14
%endmacro

; P-384's Montgomery step without multiplications. For the low word t0
; of the window, u = t0 (2^32 + 1) mod 2^64 makes t + u p divisible by
; 2^64, and u p = u 2^384 - u 2^128 - u 2^96 + u 2^32 - u. With
; a = (t0 << 32) mod 2^64 and ah = u >> 32 (u 2^32 = ah 2^64 + a), the
; words of t + u p are: 0 at word 0, with the carry e0 of t0 + a (which
; is the carry of computing u = t0 + (t0 << 32)); t1 + e0 + ah - a at 1;
; t2 - u - ah at 2; u at 6; borrows and carries between. One add chain
; (+ah with e0, +u at 6), two subtract chains (-a, -u; -ah), all modulo
; the window's top: the final value is in range (below 2^384 for the
; squaring's window, as for the multiplying step), so a carry lost out of
; the top in the add chain is the borrow the subtractions then make.
; Zen 4 multiplies 64 x 64 -> 128 bits at about one every two cycles, so
; these ~25 ALU operations beat the step's six mulx.

; P384_RED_WIN w0..w7, c32: one step on the multiplication's 8-word window
; w0..w7 (w7 the top, which only takes carries); afterwards w0 is garbage
; (the caller clears it) and w1..w7 hold (t + u p) / 2^64. c32 holds 32
; (the shrx count). Uses rax, rbx, rdx.
%macro P384_RED_WIN 9
    mov rdx, %1
    shl rdx, 32                         ; a
    mov rax, rdx
    add rdx, %1                         ; u, CF = e0
    shrx rbx, rdx, %9                   ; ah (flags kept)
    adc %2, rbx
    adc %3, 0
    adc %4, 0
    adc %5, 0
    adc %6, 0
    adc %7, rdx                         ; + u 2^384
    adc %8, 0
    sub %2, rax
    sbb %3, rdx
    sbb %4, 0
    sbb %5, 0
    sbb %6, 0
    sbb %7, 0
    sbb %8, 0
    sub %3, rbx
    sbb %4, 0
    sbb %5, 0
    sbb %6, 0
    sbb %7, 0
    sbb %8, 0
%endmacro

; The squaring's step on the 6-word window %1..%6 (%1 the low word): the
; new top word takes %1's register (0 + u + carries); the window becomes
; %2..%6, %1. r14 = 32.
%macro P384_SQ_RED2 6
    mov rdx, %1
    shl rdx, 32                         ; a
    mov rax, rdx
    add rdx, %1                         ; u, CF = e0
    shrx rbx, rdx, r14                  ; ah (flags kept)
    mov %1, rdx                         ; the new top word: u (flags kept)
    adc %2, rbx
    adc %3, 0
    adc %4, 0
    adc %5, 0
    adc %6, 0
    adc %1, 0
    sub %2, rax
    sbb %3, rdx
    sbb %4, 0
    sbb %5, 0
    sbb %6, 0
    sbb %1, 0
    sub %3, rbx
    sbb %4, 0
    sbb %5, 0
    sbb %6, 0
    sbb %1, 0
%endmacro

; One reduction step on the window %1..%6 (%1 the low word): u = %1
; (2^32 + 1); window += u p, then %1 (now 0) takes the top word; the
; window becomes %2..%6, %1. rbx = 0.
%macro P384_SQ_RED 6
    mov rdx, %1
    shl rdx, 32
    add rdx, %1
    xor eax, eax
    mulx rbp, rax, [rel ec_p384_p]
    adcx %1, rax                        ; 0
    adox %2, rbp
    mulx rbp, rax, [rel ec_p384_p + 8]
    adcx %2, rax
    adox %3, rbp
    mulx rbp, rax, [rel ec_p384_p + 16]
    adcx %3, rax
    adox %4, rbp
    mulx rbp, rax, [rel ec_p384_p + 24]
    adcx %4, rax
    adox %5, rbp
    mulx rbp, rax, [rel ec_p384_p + 32]
    adcx %5, rax
    adox %6, rbp
    mulx rbp, rax, [rel ec_p384_p + 40]
    adcx %6, rax
    adox %1, rbp
    adcx %1, rbx
%endmacro
%macro P384_MUL_BASE 3
    MONT_BASE_P384 %1, %2, %3
%endmacro
%macro P384_SQR_BASE 2
    MONT_BASE_P384 %1, %2, %2
%endmacro

; %1 = %2 + %3 mod p.
%macro P384_ADD 3
    MA_RESET
    xor eax, eax
    mov r8, [%2]
    add r8, [%3]
    mov r9, [%2 + 8]
    adc r9, [%3 + 8]
    mov r10, [%2 + 16]
    adc r10, [%3 + 16]
    mov r11, [%2 + 24]
    adc r11, [%3 + 24]
    mov r12, [%2 + 32]
    adc r12, [%3 + 32]
    mov r13, [%2 + 40]
    adc r13, [%3 + 40]
    adc rax, 0
    CSUB_MEM 6, %1, ec_p384_p, rax
%endmacro

; %1 = %2 - %3 mod p; p & mask has words mask >> 32, mask << 32,
; mask - (mask & 1) = 2 mask, and mask three times.
%macro P384_SUB 3
    mov r8, [%2]
    sub r8, [%3]
    mov r9, [%2 + 8]
    sbb r9, [%3 + 8]
    mov r10, [%2 + 16]
    sbb r10, [%3 + 16]
    mov r11, [%2 + 24]
    sbb r11, [%3 + 24]
    mov r12, [%2 + 32]
    sbb r12, [%3 + 32]
    mov r13, [%2 + 40]
    sbb r13, [%3 + 40]
    sbb rax, rax
    mov edx, eax                ; p0 & mask
    mov rbx, rax
    shl rbx, 32                 ; p1 & mask
    lea rbp, [rax + rax]        ; p2 & mask
    add r8, rdx
    adc r9, rbx
    adc r10, rbp
    adc r11, rax
    adc r12, rax
    adc r13, rax
    mov [%1], r8
    mov [%1 + 8], r9
    mov [%1 + 16], r10
    mov [%1 + 24], r11
    mov [%1 + 32], r12
    mov [%1 + 40], r13
%endmacro

; ---------------------------------------------------------------------
; Scalars: Montgomery multiplication modulo the group orders.
%macro P256_ORD_MUL_ADX 3
    MONT_ADX 4, %1, %2, %3, ec_p256_n, 2, ec_p256_n0
%endmacro
%macro P256_ORD_MUL_BASE 3
    MONT_BASE 4, %1, %2, %3, ec_p256_n, 2, ec_p256_n0
%endmacro
%macro P384_ORD_MUL_ADX 3
    MONT_ADX 6, %1, %2, %3, ec_p384_n, 2, ec_p384_n0
%endmacro
%macro P384_ORD_MUL_BASE 3
    MONT_BASE 6, %1, %2, %3, ec_p384_n, 2, ec_p384_n0
%endmacro

%endif
