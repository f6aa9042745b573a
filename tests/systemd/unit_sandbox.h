/* unit_sandbox.h: apply what vgd.service imposes on its processes (its
 * SystemCallFilter= allow-list, MemoryDenyWriteExecute=,
 * RestrictAddressFamilies=AF_UNIX, NoNewPrivileges=, an empty
 * CapabilityBoundingSet=, LimitMEMLOCK=, LimitCORE=0, UMask=0077) to the
 * calling process, so a test can run vgd the way systemd would without a
 * running systemd. */
#ifndef VG_TEST_UNIT_SANDBOX_H
#define VG_TEST_UNIT_SANDBOX_H

/* syscalls_file: one system call name per line, the unit's expanded
 * SystemCallFilter= (written by unit_syscalls.py). A call outside it kills
 * the process (stricter than the unit's EPERM, so that nothing denied
 * can go unnoticed). memlock: bytes for RLIMIT_MEMLOCK. Returns 0 or -1
 * with the reason on stderr. */
int vgt_unit_sandbox(const char *syscalls_file, unsigned long memlock);

#endif
