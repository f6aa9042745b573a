/* sandbox.h: what every child does before it handles untrusted input or
 * keys: drop privileges (the front and the keyholders to different users
 * when started as root), shrink rlimits, no_new_privs, not dumpable, then
 * a seccomp allow-list for its role, with arguments checked where a call
 * could do more than the role needs. Any other system call (or argument)
 * traps: the SIGSYS handler reports the call on the child's own channel to
 * the supervisor and the child exits with VGD_EXIT_SECCOMP. */
#ifndef VGD_SANDBOX_H
#define VGD_SANDBOX_H

#include <stddef.h>
#include <sys/types.h>

enum vgd_role { VGD_ROLE_FRONT, VGD_ROLE_KEYHOLDER };

/* Exit status a child uses after its SIGSYS handler reported a violation. */
#define VGD_EXIT_SECCOMP 159

typedef struct {
	int drop_privs; /* setgid/setuid to uid/gid */
	uid_t uid;
	gid_t gid;
	unsigned nofile; /* RLIMIT_NOFILE for the role */
	int report_fd;   /* the child's channel to the supervisor: violations go here */
	int chan_fd;     /* keyholder: its channel to the front (-1 for the front) */
} vgd_sandbox_opts;

/* Enter the sandbox. Returns 0 or a negative VGD_E_* (the child must exit). */
int vgd_sandbox_enter(enum vgd_role role, const vgd_sandbox_opts *o);

/* A sandboxed child's exit: exit_group itself, so that nothing on the
 * way out makes a call the filter forbids. (Not declared noreturn: ASan
 * instruments calls to noreturn functions with a sigaltstack call.) */
void vgd_sandbox_exit(int status);

/* Name of a system call number, for the supervisor's log, written into
 * buf (cap bytes); returns buf. */
const char *vgd_syscall_name(int nr, char *buf, size_t cap);

#endif
