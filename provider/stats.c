/* stats.c: the provider's counters (vgdprov_stats.h): how many requests
 * went out blocking or asynchronously, how often async jobs paused, the
 * most requests pending at once on one connection. They live in this
 * process's memory or, when $VGD_PROVIDER_STATS names a file at start-up,
 * in that file (mapped shared, so the processes of one server add up and
 * a test or bench/vghs can read them from outside). Atomic updates; the
 * counters are this file's. Nothing secret. */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vgdprov.h"
#include "vgdprov_stats.h"

static vg_prov_stats_file local = {.magic = VG_PROV_STATS_MAGIC};
static vg_prov_stats_file *stats = &local;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void map_file(void)
{
	const char *path = secure_getenv("VGD_PROVIDER_STATS");
	if (!path || !*path)
		return;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	struct stat st;
	/* A new (empty) file gets its size; an existing one is shared as
	 * it is, the counters of the processes that mapped it before kept. */
	if (fstat(fd, &st) == 0 && (size_t)st.st_size < sizeof(vg_prov_stats_file) &&
	    ftruncate(fd, sizeof(vg_prov_stats_file)) < 0) {
		close(fd);
		return;
	}
	void *m = mmap(NULL, sizeof(vg_prov_stats_file), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	vg_prov_stats_file *f = m;
	/* Zero bytes (new) or our magic; anything else is not ours. */
	static const char zero[8];
	if (memcmp(f->magic, zero, 8) == 0)
		memcpy(f->magic, VG_PROV_STATS_MAGIC, 8);
	if (memcmp(f->magic, VG_PROV_STATS_MAGIC, 8) != 0) {
		munmap(m, sizeof(vg_prov_stats_file));
		return;
	}
	stats = f;
}

void vg_prov_stats_init(void)
{
	pthread_once(&once, map_file);
}

void vg_prov_stat_add(int which, uint64_t n)
{
	__atomic_add_fetch(&stats->v[which], n, __ATOMIC_RELAXED);
}

void vg_prov_stat_max(int which, uint64_t v)
{
	uint64_t cur = __atomic_load_n(&stats->v[which], __ATOMIC_RELAXED);
	while (cur < v && !__atomic_compare_exchange_n(&stats->v[which], &cur, v, 1,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
	}
}

uint64_t vg_prov_stat_get(int which)
{
	return __atomic_load_n(&stats->v[which], __ATOMIC_RELAXED);
}
