/* unit_sandbox.c: see unit_sandbox.h. Two stacked seccomp filters, as
 * systemd does: argument checks for W^X memory and socket families, then
 * the allow-list (the kernel applies the strictest verdict of all). */
#include "unit_sandbox.h"

#include <errno.h>
#include <linux/capability.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int load_allow_list(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "unit_sandbox: %s: %s\n", path, strerror(errno));
		return -1;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	char line[128];
	int n = 0, r = ctx ? 0 : -1;
	while (r == 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0])
			continue;
		int nr = seccomp_syscall_resolve_name(line);
		/* Names of other architectures (e.g. arm_fadvise64_64) do not
		 * exist here; systemd skips them the same way. */
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
		n++;
	}
	fclose(f);
	if (r == 0 && n < 50) {
		fprintf(stderr, "unit_sandbox: %s lists only %d system calls\n", path, n);
		r = -1;
	}
	if (r == 0)
		r = seccomp_load(ctx);
	if (ctx)
		seccomp_release(ctx);
	if (r != 0)
		fprintf(stderr, "unit_sandbox: allow-list not loaded (%d)\n", r);
	return r == 0 ? 0 : -1;
}

static int load_arg_checks(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return -1;
	const uint32_t kill = SCMP_ACT_KILL_PROCESS;
	const scmp_datum_t wx = PROT_WRITE | PROT_EXEC;
	int r = 0;
	/* MemoryDenyWriteExecute=: no writable+executable mapping, no
	 * mprotect to executable. */
	r |= seccomp_rule_add(ctx, kill, SCMP_SYS(mmap), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, wx, wx));
	r |= seccomp_rule_add(ctx, kill, SCMP_SYS(mprotect), 1,
			      SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC));
	r |= seccomp_rule_add(ctx, kill, SCMP_SYS(pkey_mprotect), 1,
			      SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC));
	/* RestrictAddressFamilies=AF_UNIX: systemd answers EAFNOSUPPORT. */
	r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
			      SCMP_A0(SCMP_CMP_NE, AF_UNIX));
	if (r == 0)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	if (r != 0)
		fprintf(stderr, "unit_sandbox: argument checks not loaded\n");
	return r == 0 ? 0 : -1;
}

static int drop_capabilities(void)
{
	/* CapabilityBoundingSet= (empty): matters only when the test runs as
	 * root; then vgd runs as uid 0 without any capability, which is as
	 * powerless as the vgd user for what vgd does. */
	for (int cap = 0; cap <= 63; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL && errno != EPERM)
			return -1;
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	memset(d, 0, sizeof(d));
	return (int)syscall(SYS_capset, &h, d);
}

int vgt_unit_sandbox(const char *syscalls_file, unsigned long memlock)
{
	struct rlimit ml = {memlock, memlock}, core = {0, 0}, now;
	/* Without CAP_SYS_RESOURCE (containers, non-root) the hard limit
	 * cannot be raised: use what there is; the caller's check that the
	 * keys got locked then tells whether it sufficed. */
	if (getrlimit(RLIMIT_MEMLOCK, &now) == 0 && now.rlim_max != RLIM_INFINITY &&
	    now.rlim_max < memlock && setrlimit(RLIMIT_MEMLOCK, &ml) < 0)
		ml.rlim_cur = ml.rlim_max = now.rlim_max;
	if (setrlimit(RLIMIT_MEMLOCK, &ml) < 0 || setrlimit(RLIMIT_CORE, &core) < 0) {
		fprintf(stderr, "unit_sandbox: setrlimit: %s\n", strerror(errno));
		return -1;
	}
	umask(0077);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || drop_capabilities() < 0) {
		fprintf(stderr, "unit_sandbox: privileges: %s\n", strerror(errno));
		return -1;
	}
	/* The allow-list goes last: loading a filter needs seccomp(2), which
	 * a list without it would deny to the test instead of to vgd. */
	if (load_arg_checks() < 0 || load_allow_list(syscalls_file) < 0)
		return -1;
	return 0;
}
