; ec_field.asm: the tier-independent field additions and subtractions of
; P-256 and P-384 (no mulx), for the C code of every asm row. Secret:
; every element.
;   void vg_p256_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
;   void vg_p256_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
;   void vg_p384_add(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
;   void vg_p384_sub(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
; r = a +- b mod p for a, b < p; r may alias a or b.
%include "x86_64/common/config.asm"
%include "x86_64/ec/ec_macros.asm"

%macro FIELD_FN 2
FUNC vg_%1
    PUSH_CALLEE
    mov rcx, rdx
    %2 rdi, rsi, rcx
    POP_CALLEE
    ret
ENDFUNC vg_%1
%endmacro

FIELD_FN p256_add, P256_ADD
FIELD_FN p256_sub, P256_SUB
FIELD_FN p384_add, P384_ADD
FIELD_FN p384_sub, P384_SUB
