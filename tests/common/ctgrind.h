/* ctgrind.h: constant-time checking with valgrind memcheck ("ctgrind").
 * Secrets are marked undefined; memcheck then reports any conditional
 * branch or memory address that depends on them. Outputs must be marked
 * public again before a test compares or prints them. The macros are
 * valgrind client requests: no-ops when not running under valgrind, which
 * is why a ct test should check VG_CT_ACTIVE() and refuse to pass without it.
 * Test-only. */
#ifndef VG_TEST_CTGRIND_H
#define VG_TEST_CTGRIND_H

#include <valgrind/memcheck.h>

#define VG_CT_SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define VG_CT_PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#define VG_CT_ACTIVE() (RUNNING_ON_VALGRIND != 0)

/* Exit status meson reads as "skipped": returned by a ct test that is run
 * outside valgrind, where it would prove nothing. */
#define VG_CT_SKIP 77

#endif
