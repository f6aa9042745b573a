; fe4_base.asm: GF(2^255-19) and the X25519 ladder, base tier (x86-64
; mul/adc only), plus the tier-independent add/sub/mul-by-a24 functions.
; Secret: every field element and scalar bit.
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe4_macros.asm"
%define TIER base
%macro FE_MUL 3
    FE_MUL_BASE %1, %2, %3
%endmacro
%macro FE_SQR 2
    FE_SQR_BASE %1, %2
%endmacro
%macro FE_MUL_W 3
    FE_MUL_BASE_W %1, %2, %3
%endmacro
%macro FE_MUL_RW 2
    FE_MUL_BASE_RW %1, %2
%endmacro
%macro FE_SQR_W 2
    FE_SQR_BASE_W %1, %2
%endmacro
%include "x86_64/c25519/fe4_tier.asm"
%include "x86_64/c25519/ge4_tier.asm"

; Tier-independent helpers (no mulx), used by every tier's C glue.
; FE_ADD/FE_SUB read all of g before they clobber rdx, so g may be in rdx.
; void vg_fe4_add(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
FUNC vg_fe4_add
    FE_ADD rdi, rsi, rdx
    ret
ENDFUNC vg_fe4_add

; void vg_fe4_sub(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
FUNC vg_fe4_sub
    FE_SUB rdi, rsi, rdx
    ret
ENDFUNC vg_fe4_sub

; void vg_fe4_mul_a24(uint64_t h[4], const uint64_t f[4]);   h = 121665 f
FUNC vg_fe4_mul_a24
    FE_MUL_A24 rdi, rsi
    ret
ENDFUNC vg_fe4_mul_a24

; void vg_fe4_mul_a24_add(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
; h = 121665 f + g: the ladder's macro, here for checkasm's edge inputs.
FUNC vg_fe4_mul_a24_add
    mov rcx, rdx                ; the macro takes rdx for itself
    FE_MUL_A24_ADD rdi, rsi, rcx
    ret
ENDFUNC vg_fe4_mul_a24_add

; void vg_fe4_addsub_w(uint64_t s[4], uint64_t d[4], const uint64_t m[5],
;                      const uint64_t p[5]);   s = m + p, d = m - p
; FE_ADDSUB_W (m and p wide: five words, the fifth <= 38, as a product's
; before its fold), exported for checkasm's edge inputs.
FUNC vg_fe4_addsub_w
    push rbx
    push r12
    push r13
    push r14
    push r15
    mov rax, rdx                ; the macro takes rbx and rdx for itself
    mov r8, [rcx]
    mov r9, [rcx + 8]
    mov r10, [rcx + 16]
    mov r11, [rcx + 24]
    mov r12, [rcx + 32]
    FE_ADDSUB_W rax
    FE_STORE rdi
    FE_STORE_HI rsi
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbx
    ret
ENDFUNC vg_fe4_addsub_w
