/* uri.c: parse vgd key URIs, "vgd:NAME" or "vgd:NAME?socket=/path", the
 * form used by the store loader and inside key reference files. */
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include "vgdprov.h"

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

int vg_prov_parse_uri(const char *uri, size_t len, char name[VGC_KEY_NAME_MAX + 1],
		      char **socket)
{
	*socket = NULL;
	if (len < 5 || memcmp(uri, "vgd:", 4) != 0)
		return -1;
	size_t i = 4, n = 0;
	while (i < len && name_char(uri[i])) {
		if (n == VGC_KEY_NAME_MAX)
			return -1;
		name[n++] = uri[i++];
	}
	name[n] = 0;
	if (n == 0)
		return -1;
	if (i == len)
		return 0;
	static const char opt[] = "?socket=";
	if (len - i <= strlen(opt) || memcmp(uri + i, opt, strlen(opt)) != 0)
		return -1;
	i += strlen(opt);
	/* The socket path is taken as it is, up to the end: no escapes, no
	 * other options, no NUL. */
	if (memchr(uri + i, 0, len - i) ||
	    len - i >= sizeof(((struct sockaddr_un *)0)->sun_path) || uri[i] != '/')
		return -1;
	*socket = strndup(uri + i, len - i);
	return *socket ? 0 : -1;
}
