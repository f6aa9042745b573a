; p256_adx.asm: the P-256 functions of the adx tier (ec_tier.asm).
; Secret: every element, point and digit.
%include "x86_64/common/config.asm"
%include "x86_64/ec/ec_macros.asm"
%define CURVE p256
%define TIER adx
%define N 4
%define ES 32
%define ROWS 37
%define MOD_P ec_p256_p
%define MOD_N ec_p256_n
%define ONE ec_p256_one
%define FULL 1
%define SELECT SELECT_SSE2
%macro FE_MUL 3
    P256_MUL_ADX %1, %2, %3
%endmacro
%macro FE_SQR 2
    P256_SQR_ADX %1, %2
%endmacro
%macro FE_ADD 3
    P256_ADD %1, %2, %3
%endmacro
%macro FE_SUB 3
    P256_SUB %1, %2, %3
%endmacro
%macro SC_MUL 3
    P256_ORD_MUL_ADX %1, %2, %3
%endmacro
%include "x86_64/ec/ec_tier.asm"
