/* keyholder.h: the process that holds the keys and runs the kernels. */
#ifndef VGD_KEYHOLDER_H
#define VGD_KEYHOLDER_H

#include "keystore.h"
#include "direct.h"
#include "khring.h"

/* Serve the requests of ring until the front closes it (the closing flag,
 * or fd, the channel socket, at its end), and those of the direct slots
 * (NULL: none) while the supervisor wants this process (its pid, self) to
 * serve them, answering the supervisor's pings on sfd. Returns an exit
 * status. Wipes the key store before returning. */
int vgd_keyholder_main(vgd_keystore *ks, vgd_khring *ring, vgd_direct *direct, uint32_t self,
		       int fd, int sfd);

#endif
