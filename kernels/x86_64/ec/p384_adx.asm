; p384_adx.asm: the P-384 functions of the adx tier (ec_tier.asm).
; Secret: every element, point and digit.
%include "x86_64/common/config.asm"
%include "x86_64/ec/ec_macros.asm"
%define CURVE p384
%define TIER adx
%define N 6
%define ES 48
%define ROWS 55
%define MOD_P ec_p384_p
%define MOD_N ec_p384_n
%define ONE ec_p384_one
%define FULL 1
%define SELECT SELECT_SSE2
%macro FE_MUL 3
    P384_MUL_ADX %1, %2, %3
%endmacro
%macro FE_SQR 2
    P384_SQR_ADX %1, %2
%endmacro
%macro FE_ADD 3
    P384_ADD %1, %2, %3
%endmacro
%macro FE_SUB 3
    P384_SUB %1, %2, %3
%endmacro
%macro SC_MUL 3
    P384_ORD_MUL_ADX %1, %2, %3
%endmacro
%include "x86_64/ec/ec_tier.asm"
