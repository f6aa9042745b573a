/* keyholder.h: the process that holds the keys and runs the kernels. */
#ifndef VGD_KEYHOLDER_H
#define VGD_KEYHOLDER_H

#include "keystore.h"

/* Serve records on fd until the front closes it. Returns an exit status.
 * Wipes the key store before returning. */
int vgd_keyholder_main(vgd_keystore *ks, int fd);

#endif
