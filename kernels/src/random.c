/* random.c: vg_random_bytes (random.h). The bytes it writes are the
 * caller's secrets; nothing here branches on them. */
#include "random.h"

#include <errno.h>
#include <sys/random.h>

int vg_random_bytes(uint8_t *buf, size_t len)
{
	while (len > 0) {
		ssize_t r = getrandom(buf, len, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return VG_E_RANDOM;
		buf += r;
		len -= (size_t)r;
	}
	return 0;
}
