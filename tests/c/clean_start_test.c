/* clean_start_test.c: a careless C host; its hooks must still start clean (issue 30).
 *
 *   clean_start_test          the host
 *   clean_start_test report   the hook: prints "ppid=P fds=0,1,2 ign=HEX blk=HEX"
 *
 * The host opens a file, a pipe and a socket pair without close-on-exec and moves the pipe's
 * write end to 1000 (or just below its descriptor limit); it ignores SIGPIPE, SIGINT, SIGQUIT,
 * SIGTERM, SIGHUP, SIGXFSZ, SIGUSR1 and SIGRTMIN+2 and blocks SIGTERM and SIGUSR2. Then it
 * fires itself, in report mode, as an exec-form hook through hooks_fire, in three host modes:
 * SIGCHLD at its default (the direct spawn path), SIGCHLD at SIG_IGN and a SIGCHLD handler that
 * reaps every child (both the helper path). The hook must report only descriptors 0, 1 and 2,
 * no ignored and no blocked signal, and a parent that is the host on the direct path and is
 * not on the helper path. The host's own descriptors must still be open afterwards. The last
 * line is "N passed, M failed"; the exit status is non-zero when anything failed. */
#define _GNU_SOURCE

#include "hookwire.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The hook: its parent, its descriptors (without the one listing them), SigIgn and SigBlk. */
static int report(void) {
    unsigned long long ign = ~0ULL, blk = ~0ULL;
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) return 1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "SigIgn:", 7) == 0) ign = strtoull(line + 7, NULL, 16);
        if (strncmp(line, "SigBlk:", 7) == 0) blk = strtoull(line + 7, NULL, 16);
    }
    fclose(f);
    int fds[256], n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) return 1;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        int fd = atoi(e->d_name);
        if (fd != dirfd(d) && n < 256) fds[n++] = fd;
    }
    closedir(d);
    qsort(fds, (size_t)n, sizeof fds[0], cmp_int);
    printf("ppid=%d fds=", (int)getppid());
    for (int i = 0; i < n; i++) printf(i ? ",%d" : "%d", fds[i]);
    printf(" ign=%016llx blk=%016llx\n", ign, blk);
    return 0;
}

static int passed = 0;
static int failed = 0;

static void reap_all(int sig) {
    (void)sig;
    int saved = errno, status;
    while (waitpid(-1, &status, WNOHANG) > 0) {}
    errno = saved;
}

enum host { HOST_DEFAULT, HOST_IGNORE, HOST_HANDLER };
static const char *host_name[] = {"SIGCHLD default (direct path)", "SIGCHLD SIG_IGN (helper path)",
                                  "SIGCHLD reaping handler (helper path)"};

static void set_disposition(int sig, void (*handler)(int), int flags) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    if (sigaction(sig, &sa, NULL) != 0) {
        perror("sigaction");
        exit(2);
    }
}

/* Descriptors without close-on-exec, as a careless host leaves them; returns how many. */
static int leak(const char *self, int *fds) {
    int n = 0, p[2], s[2];
    fds[n++] = open(self, O_RDONLY);
    if (pipe(p) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, s) != 0) {
        perror("pipe/socketpair");
        exit(2);
    }
    struct rlimit lim;
    int high = 1000;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 1000 + 16) high = (int)lim.rlim_cur - 16;
    if (dup2(p[1], high) != high) {
        perror("dup2");
        exit(2);
    }
    close(p[1]);
    fds[n++] = p[0];
    fds[n++] = high;
    fds[n++] = s[0];
    fds[n++] = s[1];
    for (int i = 0; i < n; i++) {
        if (fds[i] < 3 || (fcntl(fds[i], F_GETFD) & FD_CLOEXEC) != 0) {
            fprintf(stderr, "descriptor %d not set up as wanted\n", fds[i]);
            exit(2);
        }
    }
    return n;
}

static const char *EVENT = "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s\",\"cwd\":\"/\","
                           "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}";

/* One fire of the report hook: 1 when clean, 0 when not, -1 when it ran on the direct path
 * while the helper path was wanted (a reaping handler switches after hookwire lost a status). */
static int fire_clean(HooksDispatcher *d, enum host h) {
    char *r = NULL;
    int32_t rc = hooks_fire(d, EVENT, &r);
    const char *p = rc == HOOKS_OK ? strstr(r, "ppid=") : NULL;
    if (p == NULL) {
        fprintf(stderr, "    %s: no report (hooks_fire returned %d): %s\n", host_name[h], (int)rc,
                r ? r : "");
        hooks_free(r);
        return 0;
    }
    int ok = 1, host = (int)getpid(), ppid = atoi(p + 5);
    if (h == HOST_HANDLER && ppid == host) {
        hooks_free(r);
        return -1;
    }
    if ((h == HOST_DEFAULT) != (ppid == host)) {
        fprintf(stderr, "    %s: the hook's parent is %d, the host is %d: %s\n", host_name[h], ppid, host, r);
        ok = 0;
    }
    if (strstr(r, " fds=0,1,2 ign=0000000000000000 blk=0000000000000000\\n") == NULL) {
        fprintf(stderr, "    %s: the hook did not start clean: %s\n", host_name[h], r);
        ok = 0;
    }
    hooks_free(r);
    return ok;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "report") == 0) return report();
    char self[PATH_MAX];
    if (realpath(argv[0], self) == NULL || strpbrk(self, "\"\\") != NULL) {
        fprintf(stderr, "cannot name this program in JSON: %s\n", argv[0]);
        return 2;
    }
    int leaked[8];
    int n_leaked = leak(self, leaked);
    int ignored[] = {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGXFSZ, SIGUSR1, SIGRTMIN + 2};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) set_disposition(ignored[i], SIG_IGN, 0);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGUSR2);
    sigprocmask(SIG_BLOCK, &block, NULL);

    char config[PATH_MAX + 256];
    snprintf(config, sizeof config,
             "{\"hooks\":{\"PreToolUse\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"%s\","
             "\"args\":[\"report\"]}]}]}}",
             self);
    char *err = NULL;
    HooksDispatcher *d = hooks_dispatcher_new(config, &err);
    if (d == NULL) {
        fprintf(stderr, "config refused: %s\n", err ? err : "(no error)");
        hooks_free(err);
        return 2;
    }
    for (enum host h = HOST_DEFAULT; h <= HOST_HANDLER; h++) {
        if (h == HOST_IGNORE) set_disposition(SIGCHLD, SIG_IGN, 0);
        if (h == HOST_HANDLER) set_disposition(SIGCHLD, reap_all, SA_RESTART);
        int bad = 0, good = 0;
        /* Under the reaping handler the first fires may still take the direct path. */
        for (int k = 0; k < 50 && good + bad < 3; k++) {
            int c = fire_clean(d, h);
            if (c == 1) good++;
            if (c == 0) bad++;
        }
        if (good == 3) passed++; else failed++;
        fprintf(stderr, "%s %s\n", good == 3 ? "ok  " : "FAIL", host_name[h]);
    }
    set_disposition(SIGCHLD, SIG_DFL, 0);
    hooks_dispatcher_free(d);
    int open_after = 0;
    for (int i = 0; i < n_leaked; i++) open_after += fcntl(leaked[i], F_GETFD) != -1;
    if (open_after == n_leaked) passed++; else failed++;
    fprintf(stderr, "%s the host's own descriptors are still open\n",
            open_after == n_leaked ? "ok  " : "FAIL");
    for (int i = 0; i < n_leaked; i++) close(leaked[i]);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
