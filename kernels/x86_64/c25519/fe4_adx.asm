; fe4_adx.asm: GF(2^255-19) and the X25519 ladder, adx tier (BMI2 mulx,
; ADX adcx/adox). Secret: every field element and scalar bit.
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe4_macros.asm"
%define TIER adx
%macro FE_MUL 3
    FE_MUL_ADX %1, %2, %3
%endmacro
%macro FE_SQR 2
    FE_SQR_ADX %1, %2
%endmacro
%macro FE_MUL_W 3
    FE_MUL_ADX_W %1, %2, %3
%endmacro
%macro FE_MUL_RW 2
    FE_MUL_ADX_RW %1, %2
%endmacro
%macro FE_SQR_W 2
    FE_SQR_ADX_W %1, %2
%endmacro
%macro FE_A24_ADD 3
    FE_MUL_A24_ADD_ADX %1, %2, %3
%endmacro
%include "x86_64/c25519/fe4_tier.asm"
%include "x86_64/c25519/ge4_tier.asm"

; void vg_fe4_mul_a24_add_adx(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
; h = 121665 f + g: the ladder's macro, here for checkasm's edge inputs.
FUNC vg_fe4_mul_a24_add_adx
    push rbx
    mov rcx, rdx                ; the macro takes rdx for itself
    FE_MUL_A24_ADD_ADX rdi, rsi, rcx
    pop rbx
    ret
ENDFUNC vg_fe4_mul_a24_add_adx
