#define _GNU_SOURCE
#include "CSpawnFloor.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/// The parent's environment followed by `extra`; free() the array, not its strings.
static char **environment_with(const char *const *extra) {
    size_t parent = 0, added = 0;
    while (environ[parent]) parent++;
    while (extra && extra[added]) added++;
    char **all = calloc(parent + added + 1, sizeof *all);
    if (!all) return NULL;
    memcpy(all, environ, parent * sizeof *all);
    for (size_t i = 0; i < added; i++) all[parent + i] = (char *)extra[i];
    return all;
}

/// A close-on-exec pipe whose read end (ours) does not block.
static int child_pipe(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0) return errno;
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    return 0;
}

/// Spawns one /bin/true; on success its pid is in `*pid` and the read ends in `reads`.
static int spawn_one(char **environment, int reads[3], pid_t *pid) {
    int pipes[3][2], made = 0, error = 0;
    for (; made < 3 && !error; made++) error = child_pipe(pipes[made]);
    if (error) made--;
    if (!error) {
        posix_spawn_file_actions_t actions;
        posix_spawnattr_t attributes;
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        for (int i = 0; i < 3; i++) posix_spawn_file_actions_adddup2(&actions, pipes[i][1], i + 1);
        posix_spawn_file_actions_addclosefrom_np(&actions, 4);
        posix_spawnattr_init(&attributes);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
        posix_spawnattr_setpgroup(&attributes, 0);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        char *argv[] = {"/bin/true", NULL};
        error = posix_spawn(pid, argv[0], &actions, &attributes, argv, environment);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
    }
    for (int i = 0; i < made; i++) {
        close(pipes[i][1]);
        if (error) close(pipes[i][0]); else reads[i] = pipes[i][0];
    }
    return error;
}

/// Watches the child's pipes and pidfd until it exited and every pipe is at EOF, then reaps it
/// and kills what is left of its process group.
static void watch_until_done(int epoll, const int reads[3], pid_t pid) {
    int watched[4] = {reads[0], reads[1], reads[2], (int)syscall(SYS_pidfd_open, pid, 0)};
    int open_count = 0;
    for (int i = 0; i < 4; i++) {
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        if (watched[i] >= 0 && epoll_ctl(epoll, EPOLL_CTL_ADD, watched[i], &event) == 0) open_count++;
        else if (watched[i] >= 0) { close(watched[i]); watched[i] = -1; }
    }
    char buffer[65536];
    while (open_count > 0) {
        struct epoll_event events[4];
        int ready = epoll_wait(epoll, events, 4, -1);
        if (ready < 0 && errno != EINTR) break;
        for (int e = 0; e < ready; e++) {
            int i = (int)events[e].data.u32;
            if (watched[i] < 0) continue;
            if (i < 3 && read(watched[i], buffer, sizeof buffer) > 0) continue;
            epoll_ctl(epoll, EPOLL_CTL_DEL, watched[i], NULL);
            close(watched[i]);
            watched[i] = -1;
            open_count--;
        }
    }
    for (int i = 0; i < 4; i++) if (watched[i] >= 0) close(watched[i]);
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED) != 0 && errno == EINTR) {}
    kill(-pid, SIGKILL);
}

int spawn_floor_run(int count, const char *const *extra_environment,
                    spawn_floor_hook before_start, spawn_floor_hook after_end, void *context) {
    char **environment = environment_with(extra_environment);
    if (!environment) return ENOMEM;
    int epoll = epoll_create1(EPOLL_CLOEXEC), error = epoll < 0 ? errno : 0;
    for (int index = 0; index < count && !error; index++) {
        if (before_start) before_start(index, context);
        int reads[3];
        pid_t pid;
        error = spawn_one(environment, reads, &pid);
        if (error) break;
        watch_until_done(epoll, reads, pid);
        if (after_end) after_end(index, context);
    }
    if (epoll >= 0) close(epoll);
    free(environment);
    return error;
}
