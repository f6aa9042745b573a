; p256x52_macros.asm: GF(p256) in the 64-bit lanes of ymm or zmm vectors,
; radix 2^52 (five limbs, one vector per limb), with AVX-512 IFMA, for
; the ifma tier's comb (p256_ifma.asm). Secret: every element.
;
; The includer defines VW (ymm or zmm), VB (bytes a limb vector: 32 or
; 64) and BC (the broadcast of a qword to every lane: {1to4} or {1to8});
; the macros expand with the definitions in force where they are used, so
; one file may switch widths between functions. V(n) names vector
; register n of that width.
;
; Representation. An element is five limb vectors at consecutive VB-byte
; slots (address text E: limb i at [E + VB * i]), the value in every lane
; v = sum l_i 2^(52 i), in Montgomery form with R = 2^260: v = x 2^260
; mod p, not fully reduced. "Normalized": every limb below 2^52 (the
; multiplier reads only the low 52 bits of a limb). Bounds, in units of p:
;   - FMUL/FSQR of normalized a, b with a b < 16 p^2 (e.g. a, b < 4p, or
;     a < 8p, b < 2p) give a normalized result below 2p:
;     (a b + U p) / 2^260 < 16 p^2 / 2^260 + p < 2p, U < 2^260 the
;     Montgomery multiple;
;   - SUBK of a normalized subtrahend below k p gives a + k p - b: limb
;     vectors that NORM makes normalized;
;   - FOLD takes a normalized value below 2^260 to one below 2p.
; p = 2^256 - 2^224 + 2^192 + 2^96 - 1 has the limbs (2^52 - 1, 2^44 - 1,
; 0, 2^36, 2^48 - 2^16), and -p^-1 = 1 mod 2^52: the Montgomery digit of a
; column is its low 52 bits, and the limbs 0 and 1 of u p combine to
; u 2^44 at limb 1 (the -u of the one cancels the +u 2^52 of the other).
;
; Registers: FMUL/FSQR use V(0)-V(23); NORM/SNORM/FOLD/SUBK work on the
; five registers they are given and V(30), V(31). No general register, no
; mask register is touched. Straight-line code: nothing depends on the
; values.
%ifndef VG_P256X52_MACROS_ASM
%define VG_P256X52_MACROS_ASM 1

%define V(n) VW %+ n

    RODATA
align 64
c52_m52:  dq 0x000fffffffffffff     ; 2^52 - 1
c52_m48:  dq 0x0000ffffffffffff     ; 2^48 - 1
c52_p3:   dq 0x0000001000000000     ; limb 3 of p: 2^36
c52_p4:   dq 0x0000ffffffff0000     ; limb 4 of p: 2^48 - 2^16
; 1 in Montgomery form: 2^260 mod p
c52_one:  dq 0x0000000000000010, 0x000f000000000000, 0x000fffffffffffff
          dq 0x000ffeffffffffff, 0x00000000000fffff
; 2p and 8p with every lower limb raised by 2^54 (borrowed from the limb
; above), so a - b + kp has non-negative lower limbs for any subtrahend
; with limbs below 3 2^52; the top limb may dip below zero, which the
; carries from below make good (the sum is positive).
c52_2p:   dq 0x004ffffffffffffe, 0x00401ffffffffffb, 0x003ffffffffffffc
          dq 0x0040001ffffffffc, 0x0001fffffffdfffc
c52_8p:   dq 0x004ffffffffffff8, 0x00407ffffffffffb, 0x003ffffffffffffc
          dq 0x0040007ffffffffc, 0x0007fffffff7fffc
; 0, p, 2p, 3p normalized: a normalized value below 4p is 0 mod p iff it
; is one of them (ISZERO)
c52_kp:   dq 0, 0, 0, 0, 0
          dq 0x000fffffffffffff, 0x00000fffffffffff, 0, 0x0000001000000000, 0x0000ffffffff0000
          dq 0x000ffffffffffffe, 0x00001fffffffffff, 0, 0x0000002000000000, 0x0001fffffffe0000
          dq 0x000ffffffffffffd, 0x00002fffffffffff, 0, 0x0000003000000000, 0x0002fffffffd0000

; LD5 r, E / ST5 E, r: the five limb vectors of E to V(r..r+4) and back.
%macro LD5 2
%assign %%i 0
%rep 5
%assign %%r %1 + %%i
    vmovdqa64 V(%%r), [%2 + VB * %%i]
%assign %%i %%i + 1
%endrep
%endmacro
%macro ST5 2
%assign %%i 0
%rep 5
%assign %%r %2 + %%i
    vmovdqa64 [%1 + VB * %%i], V(%%r)
%assign %%i %%i + 1
%endrep
%endmacro

; NORM r: the carries of V(r..r+4) up, limbs 0-3 non-negative: every
; limb but the top below 2^52 after it, the top one keeps the rest
; (below 2^52 when the value is below 2^260). SNORM: the same for limbs
; that may be negative (arithmetic shifts), for a non-negative value.
%macro NORM_ 2
%assign %%i 0
%rep 4
%assign %%a %1 + %%i
%assign %%b %1 + %%i + 1
    %2 V(31), V(%%a), 52
    vpandq V(%%a), V(%%a), [c52_m52] BC
    vpaddq V(%%b), V(%%b), V(31)
%assign %%i %%i + 1
%endrep
%endmacro
%macro NORM 1
    NORM_ %1, vpsrlq
%endmacro
%macro SNORM 1
    NORM_ %1, vpsraq
%endmacro

; FOLD r: V(r..r+4) normalized, below 2^260 -> the same value less h p,
; h = its bits 256..259, below 2p: v - h 2^256 + h c with c = 2^256 - p
; = 2^224 - 2^192 - 2^96 + 1 (limb 4 + h 2^16, limb 3 - h 2^36, limb 1 -
; h 2^44, limb 0 + h), then the signed carries.
%macro FOLD 1
%assign %%r0 %1
%assign %%r1 %1 + 1
%assign %%r3 %1 + 3
%assign %%r4 %1 + 4
    vpsrlq V(30), V(%%r4), 48
    vpandq V(%%r4), V(%%r4), [c52_m48] BC
    vpaddq V(%%r0), V(%%r0), V(30)
    vpsllq V(31), V(30), 44
    vpsubq V(%%r1), V(%%r1), V(31)
    vpsllq V(31), V(30), 36
    vpsubq V(%%r3), V(%%r3), V(31)
    vpsllq V(31), V(30), 16
    vpaddq V(%%r4), V(%%r4), V(31)
    SNORM %1
%endmacro

; SUBK r, a, b, K: V(r..r+4) = a + K - b limb by limb (a, b element
; addresses, K c52_2p or c52_8p); not normalized.
%macro SUBK 4
%assign %%i 0
%rep 5
%assign %%r %1 + %%i
    vmovdqa64 V(%%r), [%2 + VB * %%i]
    vpaddq V(%%r), V(%%r), [%4 + 8 * %%i] BC
    vpsubq V(%%r), V(%%r), [%3 + VB * %%i]
%assign %%i %%i + 1
%endrep
%endmacro

; SUBR r, b: V(r..r+4) -= b (an element address).
%macro SUBR 2
%assign %%i 0
%rep 5
%assign %%r %1 + %%i
    vpsubq V(%%r), V(%%r), [%2 + VB * %%i]
%assign %%i %%i + 1
%endrep
%endmacro

; ADDR r, b: V(r..r+4) += b.
%macro ADDR 2
%assign %%i 0
%rep 5
%assign %%r %1 + %%i
    vpaddq V(%%r), V(%%r), [%2 + VB * %%i]
%assign %%i %%i + 1
%endrep
%endmacro

; The Montgomery reduction and the carries of FMUL/FSQR: the columns of
; the product in V(10..19) (each below 2^57), the result to d. Round i:
; u = the column's low 52 bits; the column's high bits and u 2^44 go to
; column i + 1 (limbs 0 and 1 of u p with the column: see the top),
; u >> 8 to column i + 2, and u (2^36, 2^48 - 2^16) at columns i + 3,
; i + 4 by IFMA. Then the carries of columns 5..9, the result.
%macro MONT52 1
%assign %%i 0
%rep 5
%assign %%t0 10 + %%i
%assign %%t1 11 + %%i
%assign %%t2 12 + %%i
%assign %%t3 13 + %%i
%assign %%t4 14 + %%i
%assign %%t5 15 + %%i
    vpandq V(20), V(%%t0), [c52_m52] BC           ; u
    vpsrlq V(21), V(%%t0), 52
    vpaddq V(%%t1), V(%%t1), V(21)
    vpsllq V(22), V(20), 44
    vpandq V(22), V(22), [c52_m52] BC
    vpaddq V(%%t1), V(%%t1), V(22)
    vpsrlq V(23), V(20), 8
    vpaddq V(%%t2), V(%%t2), V(23)
    vpmadd52luq V(%%t3), V(20), [c52_p3] BC
    vpmadd52huq V(%%t4), V(20), [c52_p3] BC
    vpmadd52luq V(%%t4), V(20), [c52_p4] BC
    vpmadd52huq V(%%t5), V(20), [c52_p4] BC
%assign %%i %%i + 1
%endrep
    NORM 15
    ST5 %1, 15
%endmacro

; FMUL d, a, b: d = a b 2^-260 mod p (element addresses; d may be a or
; b). Columns 0..9 in V(10..19), a in V(0..4), b in V(5..9); the
; products column by column so the low columns, which the reduction
; needs first, complete first.
%macro FMUL 3
    LD5 0, %2
    LD5 5, %3
%assign %%k 10
%rep 10
    vpxorq V(%%k), V(%%k), V(%%k)
%assign %%k %%k + 1
%endrep
%assign %%c 0
%rep 9
%assign %%i 0
%rep 5
%assign %%j %%c - %%i
%if %%j >= 0 && %%j <= 4
%assign %%ra %%i
%assign %%rb 5 + %%j
%assign %%tl 10 + %%c
%assign %%th 11 + %%c
    vpmadd52luq V(%%tl), V(%%ra), V(%%rb)
    vpmadd52huq V(%%th), V(%%ra), V(%%rb)
%endif
%assign %%i %%i + 1
%endrep
%assign %%c %%c + 1
%endrep
    MONT52 %1
%endmacro

; FSQR d, a: d = a^2 2^-260 mod p: the ten cross products once, doubled,
; then the five squares.
%macro FSQR 2
    LD5 0, %2
%assign %%k 10
%rep 10
    vpxorq V(%%k), V(%%k), V(%%k)
%assign %%k %%k + 1
%endrep
%assign %%c 1
%rep 7
%assign %%i 0
%rep 5
%assign %%j %%c - %%i
%if %%j > %%i && %%j <= 4
%assign %%tl 10 + %%c
%assign %%th 11 + %%c
    vpmadd52luq V(%%tl), V(%%i), V(%%j)
    vpmadd52huq V(%%th), V(%%i), V(%%j)
%endif
%assign %%i %%i + 1
%endrep
%assign %%c %%c + 1
%endrep
%assign %%k 11
%rep 8
    vpaddq V(%%k), V(%%k), V(%%k)
%assign %%k %%k + 1
%endrep
%assign %%i 0
%rep 5
%assign %%tl 10 + 2 * %%i
%assign %%th 11 + 2 * %%i
    vpmadd52luq V(%%tl), V(%%i), V(%%i)
    vpmadd52huq V(%%th), V(%%i), V(%%i)
%assign %%i %%i + 1
%endrep
    MONT52 %1
%endmacro

; ISZERO k, r, ncand: mask register k = the lanes where the normalized
; V(r..r+4) (below ncand p) is 0 mod p, i.e. equals 0, p, 2p or 3p. Uses
; k7.
%macro ISZERO 3
    kxorw %1, %1, %1
%assign %%c 0
%rep %3
%assign %%i 0
%rep 5
%assign %%r %2 + %%i
%if %%i == 0
    vpcmpeqq k7, V(%%r), [c52_kp + 40 * %%c + 8 * %%i] BC
%else
    vpcmpeqq k7{k7}, V(%%r), [c52_kp + 40 * %%c + 8 * %%i] BC
%endif
%assign %%i %%i + 1
%endrep
    korw %1, %1, k7
%assign %%c %%c + 1
%endrep
%endmacro

%endif
