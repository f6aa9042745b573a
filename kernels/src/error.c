/* error.c: messages for the VG_E_* codes (vg/error.h). */
#include "vg/error.h"

const char *vg_strerror(int err)
{
	switch (err) {
#define VG_ERR_CASE(name, value, msg) \
	case (value):                 \
		return msg;
		VG_ERRORS(VG_ERR_CASE)
#undef VG_ERR_CASE
	}
	return "unknown error";
}
