/* hsloop.c: hsloop PORT HOST CA_FILE WANT THREADS STOP_FILE: TLS handshakes
 * without pause (hsload.h: THREADS connections in flight, each verified
 * against CA_FILE and HOST, TLS 1.3 and 1.2 alternating, one HTTP request
 * whose answer must hold WANT) until STOP_FILE exists; then prints
 * "ok N failed M" and the first error, and exits 0 only if none failed
 * and some succeeded. For shell tests that change a server under load
 * (tests/tls/rotate.sh). Nothing secret. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hsload.h"

int main(int argc, char **argv)
{
	if (argc != 7) {
		fprintf(stderr, "usage: hsloop PORT HOST CA_FILE WANT THREADS STOP_FILE\n");
		return 64;
	}
	vgt_hs_target t = {argv[2], argv[3]};
	vgt_hs_load l = {
		.port = atoi(argv[1]),
		.targets = &t,
		.ntargets = 1,
		.want = argv[4],
		.threads = atoi(argv[5]),
		.per_thread = 4,
		.timeout_s = 10,
	};
	long ok = 0, failed = 0, rounds = 0;
	char first[sizeof(((vgt_hs_result *)0)->first_error)] = "";
	/* One more round after the stop file appears: handshakes that start
	 * after the change count too. */
	int last = 0;
	while (!last) {
		last = access(argv[6], F_OK) == 0;
		vgt_hs_result r;
		if (vgt_hs_run(&l, &r) < 0) {
			fprintf(stderr, "hsloop: cannot start threads\n");
			return 1;
		}
		ok += r.ok;
		failed += r.failed;
		rounds++;
		if (r.failed && !first[0])
			snprintf(first, sizeof(first), "%s", r.first_error);
	}
	printf("ok %ld failed %ld rounds %ld%s%s\n", ok, failed, rounds, first[0] ? " first: " : "",
	       first);
	return failed == 0 && ok > 0 ? 0 : 1;
}
