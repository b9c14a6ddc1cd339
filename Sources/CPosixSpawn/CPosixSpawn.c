#define _GNU_SOURCE
#include "CPosixSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int cps_pipe_cloexec(int fds[2], int nonblocking) {
    return pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
}

int cps_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int cps_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cps_epoll_add(int epfd, int fd, uint64_t token) {
    struct epoll_event event = { .events = EPOLLIN, .data.u64 = token };
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

int cps_epoll_remove(int epfd, int fd) {
    // Kernels before 2.6.9 wanted a non-NULL event even for EPOLL_CTL_DEL.
    struct epoll_event unused = { 0 };
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &unused);
}

int cps_epoll_wait(int epfd, uint64_t *tokens, int capacity, int timeout_ms) {
    struct epoll_event events[CPS_EPOLL_MAX_EVENTS];
    if (capacity > CPS_EPOLL_MAX_EVENTS) capacity = CPS_EPOLL_MAX_EVENTS;
    int count = epoll_wait(epfd, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) tokens[i] = events[i].data.u64;
    return count;
}

int cps_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int cps_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int cps_errno(void) { return errno; }

const char *cps_error_description(int errnum) {
    const char *text = strerrordesc_np(errnum);
    return text != NULL ? text : "Unknown error";
}

int cps_wait_exited(int status) { return WIFEXITED(status); }
int cps_wait_exit_code(int status) { return WEXITSTATUS(status); }
int cps_wait_signaled(int status) { return WIFSIGNALED(status); }
int cps_wait_term_signal(int status) { return WTERMSIG(status); }
