/* c25519_dispatch.c: picks the Ed25519/X25519 implementation once from the
 * CPU features (vg_cpu_features, already masked by VG_CPU_FEATURES), best
 * first; re-selects only when the test-only override bumps
 * vg_cpu_generation(). VG_KERNELS=c selects the portable reference (it
 * can only make things slower; the tests use it to cover the C path).
 * Nothing here is secret. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "c25519_impl.h"
#include "cpu_internal.h"
#include "vg_config.h"

#if VG_HAVE_ASM
/* Best first. */
static const struct vg_c25519_impl *const impls[] = {
	&vg_c25519_impl_ifma,
	&vg_c25519_impl_adx,
	&vg_c25519_impl_base,
};

static const struct vg_c25519_impl *select_impl(void)
{
	const char *k = getenv("VG_KERNELS");
	if (k && strcmp(k, "c") == 0)
		return NULL;
	uint32_t f = vg_cpu_features();
	for (size_t i = 0; i < sizeof(impls) / sizeof(impls[0]); i++)
		if ((f & impls[i]->features) == impls[i]->features)
			return impls[i];
	return NULL;
}

/* The cached choice, owned here. A race between two first callers only
 * computes the same answer twice. */
static _Atomic(const struct vg_c25519_impl *) chosen;
static atomic_uint chosen_gen = ~0u;

const struct vg_c25519_impl *vg_c25519_impl(void)
{
	unsigned g = vg_cpu_generation();
	if (atomic_load_explicit(&chosen_gen, memory_order_acquire) != g) {
		atomic_store_explicit(&chosen, select_impl(), memory_order_relaxed);
		atomic_store_explicit(&chosen_gen, g, memory_order_release);
	}
	return atomic_load_explicit(&chosen, memory_order_relaxed);
}
#else
const struct vg_c25519_impl *vg_c25519_impl(void) { return NULL; }
#endif

const char *vg_ed25519_variant(void)
{
	const struct vg_c25519_impl *i = vg_c25519_impl();
	return i ? i->name : "c";
}

const char *vg_x25519_variant(void) { return vg_ed25519_variant(); }
