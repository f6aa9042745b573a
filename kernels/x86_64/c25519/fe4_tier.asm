; fe4_tier.asm: the per-tier GF(2^255-19) functions and the X25519 ladder,
; assembled once per tier: the including file defines TIER (base or adx)
; and FE_MUL/FE_SQR and the wide FE_MUL_W/FE_MUL_RW/FE_SQR_W.
; Secret: every field element and the scalar bits; no branch or address
; depends on them (the only branches are on n and on the public bit
; position t).
;
; C prototypes (kernels/src/c25519/fe4.h):
;   void vg_fe4_mul_TIER(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
;   void vg_fe4_sqr_TIER(uint64_t h[4], const uint64_t f[4]);
;   void vg_fe4_sqrn_TIER(uint64_t h[4], const uint64_t f[4], unsigned n);  n >= 1
;   void vg_x25519_ladder_TIER(uint64_t xz[8], const uint8_t e[32], const uint64_t x1[4]);

FUNC vg_fe4_mul_ %+ TIER
    PUSH_CALLEE
    mov rcx, rdx                ; the macros take rdx for themselves
    FE_MUL rdi, rsi, rcx
    POP_CALLEE
    ret
ENDFUNC vg_fe4_mul_ %+ TIER

FUNC vg_fe4_sqr_ %+ TIER
    PUSH_CALLEE
    FE_SQR rdi, rsi
    POP_CALLEE
    ret
ENDFUNC vg_fe4_sqr_ %+ TIER

FUNC vg_fe4_sqrn_ %+ TIER
    PUSH_CALLEE
    mov ecx, edx                ; n: public loop count
    FE_SQR rdi, rsi
    dec ecx
    jz .done                    ; ct: public loop count n
.loop:
    FE_SQR rdi, rdi
    dec ecx
    jnz .loop                   ; ct: public loop count n
.done:
    POP_CALLEE
    ret
ENDFUNC vg_fe4_sqrn_ %+ TIER

; The X25519 ladder (RFC 7748 section 5) for bits 254..0 of the clamped
; scalar e, from (x2, z2) = (1, 0), (x3, z3) = (x1, 1). Writes x2 || z2.
; Stack frame (32-byte elements, all secret except the saved pointers):
%define L_X1   0
%define L_X2   32
%define L_Z2   64
%define L_X3   96
%define L_Z3   128
%define L_A    160
%define L_AA   192
%define L_B    224
%define L_BB   256
%define L_E    288
%define L_C    320
%define L_D    352
%define L_SB   384              ; the swap bits e ^ (e >> 1) (secret)
%define L_OUT  416              ; saved xz pointer (public)
%define L_EPTR 424              ; saved e pointer (public)
%define L_AS   448              ; A, B of the point doubled
%define L_BS   480
%define L_DA   512              ; wide (five words, FE_STORE_W): D A,
%define L_X3W  552              ; (DA + CB)^2 and AA BB before their folds
%define L_X2W  592
%define L_SIZE 640

; The tier file may bring its own AA + a24 E (FE_A24_ADD); else mul's.
%ifnmacro FE_A24_ADD 3
%macro FE_A24_ADD 3
    FE_MUL_A24_ADD %1, %2, %3
%endmacro
%endif

; The ladder step t doubles the point whose x + z, x - z are A, B (bit
; s_t clear) or C, D (set): with A in r8-r11 and B in r12-r15 (just
; made, and stored), AS, BS = the chosen pair by cmov from C, D on the
; carry of bt (CF = s_t), eax = t. The choice is made as soon as A, B
; exist, by the step before (at its end, after C, D), on eight cmovs:
; the SSE selection it replaces took 26 instructions and read A..D with
; 128-bit loads of 64-bit stores (no store forwarding). Clobbers rdx.
%macro LADDER_PICK 0
    mov edx, eax
    shr edx, 6                  ; the word of bit t: public
    mov rdx, [rsp + L_SB + 8 * rdx]
    bt rdx, rax                 ; CF = bit t (mod 64) of that word
    cmovc r8, [rsp + L_C]
    cmovc r9, [rsp + L_C + 8]
    cmovc r10, [rsp + L_C + 16]
    cmovc r11, [rsp + L_C + 24]
    cmovc r12, [rsp + L_D]
    cmovc r13, [rsp + L_D + 8]
    cmovc r14, [rsp + L_D + 16]
    cmovc r15, [rsp + L_D + 24]
    FE_STORE rsp + L_AS
    FE_STORE_HI rsp + L_BS
%endmacro

; x2, z2 = the double of the point whose x + z, x - z are at %1, %2.
%macro LADDER_DOUBLE 2
    FE_SQR rsp + L_AA, %1
    FE_SQR rsp + L_BB, %2
    FE_SUB_B rsp + L_E, rsp + L_AA, rsp + L_BB  ; E = AA - BB
    FE_A24_ADD rsp + L_Z2, rsp + L_E, rsp + L_AA
    FE_MUL rsp + L_X2, rsp + L_AA, rsp + L_BB
    FE_MUL rsp + L_Z2, rsp + L_Z2, rsp + L_E
%endmacro

FUNC vg_x25519_ladder_ %+ TIER
    PUSH_CALLEE
    sub rsp, L_SIZE + 8         ; + 8: 16-aligned frame (not needed, kept tidy)
    mov [rsp + L_OUT], rdi
    mov [rsp + L_EPTR], rsi
    mov rax, [rdx]              ; x3 = x1, copied into the frame
    mov [rsp + L_X1], rax
    mov [rsp + L_X3], rax
    mov rax, [rdx + 8]
    mov [rsp + L_X1 + 8], rax
    mov [rsp + L_X3 + 8], rax
    mov rax, [rdx + 16]
    mov [rsp + L_X1 + 16], rax
    mov [rsp + L_X3 + 16], rax
    mov rax, [rdx + 24]
    mov [rsp + L_X1 + 24], rax
    mov [rsp + L_X3 + 24], rax
    xor eax, eax
    mov qword [rsp + L_X2], 1   ; x2 = 1, z2 = 0, z3 = 1
    mov [rsp + L_X2 + 8], rax
    mov [rsp + L_X2 + 16], rax
    mov [rsp + L_X2 + 24], rax
    mov [rsp + L_Z2], rax
    mov [rsp + L_Z2 + 8], rax
    mov [rsp + L_Z2 + 16], rax
    mov [rsp + L_Z2 + 24], rax
    mov qword [rsp + L_Z3], 1
    mov [rsp + L_Z3 + 8], rax
    mov [rsp + L_Z3 + 16], rax
    mov [rsp + L_Z3 + 24], rax

    ; Step t's swap mask is k_t ^ k_(t+1) (the bit before it, 0 before
    ; bit 254): bit t of s = e ^ (e >> 1) with bit 255 of e taken as 0.
    ; Made here once, the step reads its bit with bt and sbb (the per-step
    ; byte load, shifts and the saved previous bit took 17 instructions).
    mov r8, [rsi]
    mov r9, [rsi + 8]
    mov r10, [rsi + 16]
    mov r11, [rsi + 24]
    shl r11, 1                  ; bit 255 cleared
    shr r11, 1
    mov rax, r8
    shrd rax, r9, 1
    xor rax, r8
    mov [rsp + L_SB], rax
    mov rax, r9
    shrd rax, r10, 1
    xor rax, r9
    mov [rsp + L_SB + 8], rax
    mov rax, r10
    shrd rax, r11, 1
    xor rax, r10
    mov [rsp + L_SB + 16], rax
    mov rax, r11
    shr rax, 1
    xor rax, r11
    mov [rsp + L_SB + 24], rax

    ; A, B, C, D of the start; each later step makes those of the next
    ; from its last products (FE_ADDSUB_W). Every second operand is a
    ; product or square (or the start's 0 and 1): FE_ADD_B/FE_SUB_B's one
    ; fold.
    FE_ADD_B rsp + L_A, rsp + L_X2, rsp + L_Z2  ; A = x2 + z2
    FE_SUB_B rsp + L_B, rsp + L_X2, rsp + L_Z2  ; B = x2 - z2
    FE_ADD_B rsp + L_C, rsp + L_X3, rsp + L_Z3  ; C = x3 + z3
    FE_SUB_B rsp + L_D, rsp + L_X3, rsp + L_Z3  ; D = x3 - z3
    mov ecx, 254                ; t, public; rcx survives every field macro
    mov eax, ecx
    mov r8, [rsp + L_A]
    mov r9, [rsp + L_A + 8]
    mov r10, [rsp + L_A + 16]
    mov r11, [rsp + L_A + 24]
    mov r12, [rsp + L_B]
    mov r13, [rsp + L_B + 8]
    mov r14, [rsp + L_B + 16]
    mov r15, [rsp + L_B + 24]
    LADDER_PICK

.step:
    ; No swap of the points: the sum's coordinates (DA + CB)^2 and
    ; x1 (DA - CB)^2 are the same whichever point comes first (a swap only
    ; exchanges DA and CB), so only the point doubled depends on the bit:
    ; its A, B are C, D when s_t is set (LADDER_PICK, into AS, BS, by the
    ; step before). The ordering puts the longest chain (D A -> (DA -
    ; CB)^2 -> x1 (DA - CB)^2) first and the independent squarings fill
    ; in behind it. The three pairs of products whose only readers are
    ; their sum and difference (DA and CB, x3 and z3, x2 and z2) are left
    ; wide (unfolded, _W and _RW) and FE_ADDSUB_W folds the sum and the
    ; difference once each: on the critical chains this saves a fold and
    ; a carry fold per pair (measured 5.5 % of the ladder on Zen 5). The
    ; second product of each pair is not stored (_RW, then FE_ADDSUB_W).
    FE_MUL_W rsp + L_DA, rsp + L_D, rsp + L_A   ; DA = D * A
    FE_MUL_RW rsp + L_C, rsp + L_B              ; CB = C * B
    FE_ADDSUB_W rsp + L_DA
    FE_STORE rsp + L_X3                         ; DA + CB
    FE_STORE_HI rsp + L_Z3                      ; DA - CB
    FE_SQR rsp + L_AA, rsp + L_AS               ; AA = A^2 (the point doubled)
    FE_SQR rsp + L_BB, rsp + L_BS               ; BB = B^2
    FE_SQR rsp + L_Z3, rsp + L_Z3               ; (DA - CB)^2
    FE_SQR_W rsp + L_X3W, rsp + L_X3            ; x3 = (DA + CB)^2
    FE_SUB_B rsp + L_E, rsp + L_AA, rsp + L_BB  ; E = AA - BB
    FE_MUL_RW rsp + L_Z3, rsp + L_X1            ; z3 = x1 * (DA - CB)^2
    FE_ADDSUB_W rsp + L_X3W
    FE_STORE rsp + L_C                          ; next C = x3 + z3
    FE_STORE_HI rsp + L_D                       ; next D = x3 - z3
    FE_A24_ADD rsp + L_Z2, rsp + L_E, rsp + L_AA ; AA + a24 E
    FE_MUL_W rsp + L_X2W, rsp + L_AA, rsp + L_BB ; x2 = AA * BB
    FE_MUL_RW rsp + L_Z2, rsp + L_E             ; z2 = E * (AA + a24 * E)
    FE_ADDSUB_W rsp + L_X2W
    FE_STORE rsp + L_A                          ; next A = x2 + z2
    FE_STORE_HI rsp + L_B                       ; next B = x2 - z2
    lea eax, [rcx - 1]
    LADDER_PICK                                 ; the next step's AS, BS

    dec ecx
    cmp ecx, 3
    jae .step                   ; ct: public loop counter t

    ; Bits 2, 1, 0 are zero (the clamping): the last three steps only
    ; double. Their sums x3, z3 would be read by nothing (after bit 0 = 0
    ; no swap is left: x2, z2 is the result), so they are not computed:
    ; three products, two squares and four additions fewer a step. Step 2
    ; doubles the point bit 3 left in the lead (s_2 = k_3, picked into AS,
    ; BS by step 3), steps 1 and 0 double x2, z2.
    LADDER_DOUBLE rsp + L_AS, rsp + L_BS
%rep 2
    FE_ADD_B rsp + L_A, rsp + L_X2, rsp + L_Z2
    FE_SUB_B rsp + L_B, rsp + L_X2, rsp + L_Z2
    LADDER_DOUBLE rsp + L_A, rsp + L_B
%endrep

    mov rdi, [rsp + L_OUT]
%assign i 0
%rep 4
    mov rax, [rsp + L_X2 + i]
    mov [rdi + i], rax
    mov rax, [rsp + L_Z2 + i]
    mov [rdi + 32 + i], rax
%assign i i + 8
%endrep
    ; wipe the secret frame (vectors would be faster; this runs once)
    xor eax, eax
    mov ecx, L_SIZE / 8
    mov rdi, rsp
    rep stosq
    add rsp, L_SIZE + 8
    POP_CALLEE
    ret
ENDFUNC vg_x25519_ladder_ %+ TIER
