/* sandbox.h: what every child does before it handles untrusted input or
 * keys: drop privileges, shrink rlimits, no_new_privs, not dumpable, then
 * a seccomp allow-list for its role. Any other system call traps: the
 * SIGSYS handler reports {pid, syscall} to the supervisor and the child
 * exits with VGD_EXIT_SECCOMP. */
#ifndef VGD_SANDBOX_H
#define VGD_SANDBOX_H

#include <sys/types.h>

enum vgd_role { VGD_ROLE_FRONT, VGD_ROLE_KEYHOLDER };

/* Exit status a child uses after its SIGSYS handler reported a violation. */
#define VGD_EXIT_SECCOMP 159

typedef struct {
	int drop_privs; /* setgid/setuid to uid/gid */
	uid_t uid;
	gid_t gid;
	unsigned nofile; /* RLIMIT_NOFILE for the role */
	int report_fd;   /* violations are written here as {pid, syscall} */
} vgd_sandbox_opts;

/* Enter the sandbox. Returns 0 or a negative VGD_E_* (the child must exit). */
int vgd_sandbox_enter(enum vgd_role role, const vgd_sandbox_opts *o);

/* Name of a system call number, for the supervisor's log. */
const char *vgd_syscall_name(int nr);

typedef struct {
	int pid;
	int nr;
} vgd_violation;

#endif
