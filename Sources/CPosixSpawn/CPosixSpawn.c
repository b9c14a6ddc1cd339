#define _GNU_SOURCE
#include "CPosixSpawn.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
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

int cps_epoll_add(int epfd, int fd, uint64_t token, int oneshot) {
    struct epoll_event event = { .events = EPOLLIN | (oneshot ? EPOLLONESHOT : 0), .data.u64 = token };
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

int cps_epoll_watch(int epfd, int fd, uint64_t token, int oneshot) {
    struct epoll_event event = { .events = EPOLLIN | (oneshot ? EPOLLONESHOT : 0), .data.u64 = token };
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event);
}

int cps_epoll_hold(int epfd, int fd, uint64_t token) {
    // EPOLLHUP and EPOLLERR are reported whatever the mask: one-shot, so at most once.
    struct epoll_event event = { .events = EPOLLONESHOT, .data.u64 = token };
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event);
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

int cps_epoll_wait_events(int epfd, uint64_t *tokens, uint32_t *ready, int capacity, int timeout_ms) {
    struct epoll_event events[CPS_EPOLL_MAX_EVENTS];
    if (capacity > CPS_EPOLL_MAX_EVENTS) capacity = CPS_EPOLL_MAX_EVENTS;
    int count = epoll_wait(epfd, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        tokens[i] = events[i].data.u64;
        uint32_t bits = events[i].events;
        ready[i] = ((bits & EPOLLIN) ? CPS_READY_READABLE : 0)
            | ((bits & (EPOLLHUP | EPOLLRDHUP)) ? CPS_READY_HANG_UP : 0)
            | ((bits & EPOLLERR) ? CPS_READY_ERROR : 0);
    }
    return count;
}

int cps_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int cps_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int cps_open_pty(char *name, size_t size) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, size) != 0) {
        int saved = errno;
        close(master);
        errno = saved;
        return -1;
    }
    return master;
}

int cps_spawn_new_session(posix_spawnattr_t *attributes) {
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    int result = posix_spawnattr_setsigdefault(attributes, &all);
    if (result == 0) result = posix_spawnattr_setsigmask(attributes, &none);
    if (result == 0) result = posix_spawnattr_setflags(attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    return result;
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

// MARK: - Live process groups

static pid_t live_groups[CPS_MAX_GROUPS];

void cps_group_register(pid_t pgid) {
    for (int i = 0; i < CPS_MAX_GROUPS; i++) {
        pid_t expected = 0;
        if (__atomic_compare_exchange_n(&live_groups[i], &expected, pgid, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) return;
    }
}

void cps_group_unregister(pid_t pgid) {
    for (int i = 0; i < CPS_MAX_GROUPS; i++) {
        pid_t expected = pgid;
        if (__atomic_compare_exchange_n(&live_groups[i], &expected, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) return;
    }
}

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};

/// Only async-signal-safe calls: kill, sigaction, sigprocmask, raise.
static void die_killing_groups(int signal) {
    for (int i = 0; i < CPS_MAX_GROUPS; i++) {
        pid_t pgid = __atomic_load_n(&live_groups[i], __ATOMIC_ACQUIRE);
        if (pgid > 0) kill(-pgid, SIGKILL);
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal, &fallback, NULL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    raise(signal);
}

int cps_install_fatal_signal_handlers(void) {
    static char alternate_stack[64 * 1024];
    stack_t stack;
    memset(&stack, 0, sizeof stack);
    stack.ss_sp = alternate_stack;
    stack.ss_size = sizeof alternate_stack;
    if (sigaltstack(&stack, NULL) != 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = die_killing_groups;
    action.sa_flags = SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        if (sigaction(fatal_signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}

int cps_become_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

int cps_reap_exited_in_group(pid_t group) {
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PGID, (id_t)group, &info, WEXITED | WNOHANG) < 0) {
            if (errno == EINTR) continue;
            return errno == ECHILD ? 0 : -1;
        }
        if (info.si_pid == 0) return 1;
    }
}

void cps_name_current_thread(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = '\0';
    pthread_setname_np(pthread_self(), cut);
}
