/* nochown.c: run a program (argv[1..]) under a seccomp filter that
 * refuses, with EPERM, every system call that changes a file's mode or
 * owner by path (chmod, fchmodat, chown, lchown, fchownat). test_privsep
 * starts vgd through it: vgd must give its socket the configured mode and
 * group without them (a path can be swapped between bind and a chmod). */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: nochown PROGRAM [ARGS...]\n");
		return 64;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	static const int calls[] = {SCMP_SYS(chmod), SCMP_SYS(fchmodat), SCMP_SYS(chown),
				    SCMP_SYS(lchown), SCMP_SYS(fchownat)};
	int r = ctx ? 0 : -1;
	for (size_t i = 0; r == 0 && i < sizeof(calls) / sizeof(calls[0]); i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), calls[i], 0);
	if (r == 0)
		r = seccomp_load(ctx);
	if (r != 0) {
		fprintf(stderr, "nochown: cannot load the filter\n");
		return 1;
	}
	execv(argv[1], argv + 1);
	perror("nochown: exec");
	return 127;
}
