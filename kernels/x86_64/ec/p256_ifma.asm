; p256_ifma.asm: the P-256 functions of the ifma tier (ec_tier.asm): the
; comb with an AVX-512 table scan; the field arithmetic and the other
; point functions are the adx tier's (an IFMA field multiplication does
; not beat mulx for one 4- or 6-limb product).
; Secret: every element, point and digit.
%include "x86_64/common/config.asm"
%include "x86_64/ec/ec_macros.asm"
%define CURVE p256
%define TIER ifma
%define N 4
%define ES 32
%define ROWS 37
%define MOD_P ec_p256_p
%define MOD_N ec_p256_n
%define ONE ec_p256_one
%define FULL 0
%define SELECT SELECT_AVX512
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
