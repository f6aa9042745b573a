/* proc.c: see proc.h. The table of started processes belongs here. */
#include "proc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROCS 64

static pid_t groups[MAX_PROCS]; /* process groups we started (pgid = pid) */
static int n_groups;
static pid_t tracked[8];        /* other processes to kill on a signal */
static int n_tracked;

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_signal(int sig)
{
	for (int i = 0; i < n_groups; i++)
		if (groups[i] > 0)
			kill(-groups[i], SIGKILL);
	for (int i = 0; i < n_tracked; i++)
		kill(tracked[i], SIGKILL);
	_exit(128 + sig);
}

void vgt_proc_init(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void vgt_track(pid_t pid)
{
	if (n_tracked < (int)(sizeof(tracked) / sizeof(tracked[0])))
		tracked[n_tracked++] = pid;
}

pid_t vgt_spawn(char *const argv[], char *const env[], const char *in, const char *out)
{
	/* A slot freed by vgt_wait is reused: a suite runs many clients. */
	int slot = 0;
	while (slot < n_groups && groups[slot] != 0)
		slot++;
	if (slot == MAX_PROCS)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* the test died: so do we */
		int fi = open(in ? in : "/dev/null", O_RDONLY);
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fi < 0 || fo < 0)
			_exit(126);
		dup2(fi, 0);
		dup2(fo, 1);
		dup2(fo, 2);
		close(fi);
		close(fo);
		signal(SIGPIPE, SIG_DFL);
		for (size_t i = 0; env && env[i]; i++) {
			if (strchr(env[i], '='))
				putenv(env[i]);
			else
				unsetenv(env[i]);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid); /* also here: no race with a kill before exec */
	groups[slot] = pid;
	if (slot == n_groups)
		n_groups++;
	return pid;
}

static void forget(pid_t pid)
{
	for (int i = 0; i < n_groups; i++)
		if (groups[i] == pid)
			groups[i] = 0;
}

int vgt_wait(pid_t pid, int ms)
{
	long long deadline = now_ms() + ms;
	int st;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (now_ms() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			forget(pid);
			return -1;
		}
		usleep(5000);
	}
	kill(-pid, SIGKILL); /* leftovers in its group, if any */
	forget(pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int vgt_alive(pid_t pid)
{
	int st;
	return waitpid(pid, &st, WNOHANG) == 0;
}

void vgt_kill_all(void)
{
	for (int i = 0; i < n_groups; i++)
		if (groups[i] > 0)
			kill(-groups[i], SIGTERM);
	long long deadline = now_ms() + 3000;
	for (int i = 0; i < n_groups; i++) {
		if (groups[i] <= 0)
			continue;
		int st;
		while (waitpid(groups[i], &st, WNOHANG) == 0 && now_ms() < deadline)
			usleep(10000);
		kill(-groups[i], SIGKILL); /* the group: nginx workers too */
		waitpid(groups[i], &st, 0);
		groups[i] = 0;
	}
	n_groups = 0;
}

int vgt_free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return 0;
	struct sockaddr_in a;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof(a);
	int port = 0;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

int vgt_wait_port(int port, int ms)
{
	long long deadline = now_ms() + ms;
	while (now_ms() < deadline) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in a;
		memset(&a, 0, sizeof(a));
		a.sin_family = AF_INET;
		a.sin_port = htons((uint16_t)port);
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		int ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
		if (fd >= 0)
			close(fd);
		if (ok)
			return 0;
		usleep(20000);
	}
	return -1;
}

char *vgt_slurp(const char *file)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *s = malloc(cap + 1);
	size_t r;
	while (s && (r = fread(s + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			char *t = realloc(s, 2 * cap + 1);
			if (!t) {
				free(s);
				s = NULL;
				break;
			}
			s = t;
			cap *= 2;
		}
	}
	fclose(f);
	if (s)
		s[n] = 0;
	return s;
}

int vgt_wait_file(const char *file, const char *needle, int ms)
{
	long long deadline = now_ms() + ms;
	while (now_ms() < deadline) {
		char *s = vgt_slurp(file);
		int found = s && strstr(s, needle);
		free(s);
		if (found)
			return 0;
		usleep(20000);
	}
	return -1;
}
