/* hook_rights.h: what a compromised front or keyholder would try in
 * order to pass or receive a descriptor, for the test hooks of both
 * (vgd-testhooks only: VGD_TEST_HOOKS). The sandbox must kill the caller
 * on each; sandbox-seccomp checks that it does, and names the call. */
#ifndef VGD_HOOK_RIGHTS_H
#define VGD_HOOK_RIGHTS_H

/* Try to pass fd over sock with SCM_RIGHTS: with sendmsg, or with
 * sendmmsg when batch is set. */
void vgd_hook_send_rights(int sock, int fd, int batch);
/* Try to receive descriptors on sock (recvmmsg with a control buffer). */
void vgd_hook_recv_rights(int sock);

#endif
