/* keyholder.h: the process that holds the keys and runs the kernels. */
#ifndef VGD_KEYHOLDER_H
#define VGD_KEYHOLDER_H

#include "keystore.h"

/* Serve records on fd until the front closes it, answering the
 * supervisor's pings on sfd. Returns an exit status. Wipes the key store
 * before returning. */
int vgd_keyholder_main(vgd_keystore *ks, int fd, int sfd);

#endif
