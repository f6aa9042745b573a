/* fuzz_check.h: the property check shared by the protocol fuzz targets: a
 * failed property aborts with its location, so libFuzzer keeps the input. */
#ifndef VG_FUZZ_CHECK_H
#define VG_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, \
				#cond);                                               \
			abort();                                                      \
		}                                                                     \
	} while (0)

#endif
