; fe4_adx.asm: GF(2^255-19) and the X25519 ladder, adx tier (BMI2 mulx,
; ADX adcx/adox). Secret: every field element and scalar bit.
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe4_macros.asm"
%define TIER adx
%macro FE_MUL 3
    FE_MUL_ADX %1, %2, %3
%endmacro
%macro FE_MUL_R 2
    FE_MUL_ADX_R %1, %2
%endmacro
%macro FE_SQR 2
    FE_SQR_ADX %1, %2
%endmacro
%include "x86_64/c25519/fe4_tier.asm"
%include "x86_64/c25519/ge4_tier.asm"
