; ge52_ops_ifma.asm: single Ed25519 point operations at the ifma tier for
; the verification's double multiplication (public data, but constant
; time anyway): the state (X, Y, Z, T) in the four lanes of five limb
; vectors in memory (radix 2^51, limbs below 2^61), the formulas and
; register use of ge52_ifma.asm (its MADD without the table scan).
;
; C prototypes (kernels/src/c25519/fe4.h):
;   void vg_ge52_add_ifma(vg_ge52_p3 *s, const vg_ge52_niels *q);
;     s += q, q as lanes (y - x, y + x, 2d t, 2 z) (z = 1: an affine point)
;   void vg_ge52_dbl_ifma(vg_ge52_p3 *s);   s = 2 s
%include "x86_64/common/config.asm"
%include "x86_64/c25519/fe52_macros.asm"
%define VG_GE52_OPS 1
%include "x86_64/c25519/ge52_ifma.asm"
