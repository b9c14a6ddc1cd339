#ifndef CPOSIXSPAWN_H
#define CPOSIXSPAWN_H

// The few POSIX/Linux calls that Swift's Glibc module does not show: GNU extensions
// (pipe2, posix_spawn_file_actions_addchdir_np, ..._addclosefrom_np), raw syscalls (pidfd_open)
// and epoll behind plain integers (struct epoll_event is packed on x86-64).

#include <spawn.h>
#include <stdint.h>
#include <sys/types.h>

/// pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0)); returns 0 or -1 with errno set.
int cps_pipe_cloexec(int fds[2], int nonblocking);

/// pidfd_open(pid, 0); returns a descriptor that polls readable when the process exits, or -1.
int cps_pidfd_open(pid_t pid);

/// epoll_create1(EPOLL_CLOEXEC); returns the epoll descriptor, or -1 with errno set.
int cps_epoll_create(void);

/// Watches `fd` for input, level-triggered (EPOLLIN; hang-ups and errors are reported too), tagged
/// with `token`; with `oneshot`, only until it is first reported (EPOLLONESHOT), then again
/// after cps_epoll_watch. Returns 0 or -1 with errno set.
int cps_epoll_add(int epfd, int fd, uint64_t token, int oneshot);

/// Watches a descriptor already in the set again, as cps_epoll_add would: a one-shot one
/// after its report, or one held by cps_epoll_hold (a descriptor already readable is reported
/// by the next wait). Returns 0 or -1 with errno set.
int cps_epoll_watch(int epfd, int fd, uint64_t token, int oneshot);

/// Keeps `fd` in the set without reporting its input until cps_epoll_watch (a hang-up or an
/// error, which epoll always reports, at most once). Returns 0 or -1 with errno set.
int cps_epoll_hold(int epfd, int fd, uint64_t token);

/// Stops watching `fd`; returns 0 or -1 with errno set.
int cps_epoll_remove(int epfd, int fd);

/// The largest `capacity` cps_epoll_wait honours.
#define CPS_EPOLL_MAX_EVENTS 256

/// epoll_wait: writes the tokens of up to `capacity` (at most CPS_EPOLL_MAX_EVENTS) ready
/// descriptors to `tokens`; returns how many, or -1 with errno set. `timeout_ms` -1 waits forever.
int cps_epoll_wait(int epfd, uint64_t *tokens, int capacity, int timeout_ms);

/// What cps_epoll_wait_events reports for a descriptor, as bits.
#define CPS_READY_READABLE 1
#define CPS_READY_HANG_UP 2
#define CPS_READY_ERROR 4

/// cps_epoll_wait, also writing to `ready` what was reported for each token: CPS_READY_READABLE
/// (EPOLLIN), CPS_READY_HANG_UP (EPOLLHUP or EPOLLRDHUP), CPS_READY_ERROR (EPOLLERR).
int cps_epoll_wait_events(int epfd, uint64_t *tokens, uint32_t *ready, int capacity, int timeout_ms);

/// posix_spawn_file_actions_addchdir_np (glibc >= 2.29); returns 0 or an errno.
int cps_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34); returns 0 or an errno.
int cps_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

/// Opens a new pseudo-terminal pair's master (posix_openpt with O_RDWR | O_NOCTTY | O_CLOEXEC),
/// grants and unlocks its slave and writes the slave's path to `name` (`size` bytes). Returns
/// the master descriptor, or -1 with errno set (nothing left open).
int cps_open_pty(char *name, size_t size);

/// Sets the flags of a child that starts a session of its own (POSIX_SPAWN_SETSID, so that the
/// first terminal it opens becomes its controlling terminal) with default handling of every
/// signal and an empty signal mask. Returns 0 or posix_spawn's error number.
int cps_spawn_new_session(posix_spawnattr_t *attributes);

/// The current thread's errno after a failed call made in C.
int cps_errno(void);

/// Names the calling thread for ps -L and htop (cut to 15 bytes, the kernel's limit).
void cps_name_current_thread(const char *name);

/// prctl(PR_SET_CHILD_SUBREAPER, 1): orphaned descendants become this process's children
/// instead of init's, so it can reap them. Returns 0 or -1 with errno set.
int cps_become_child_subreaper(void);

/// Reaps every exited child of this process in process group `group` (waitid P_PGID, WNOHANG):
/// the orphans of an update's group that a subreaper adopted. Returns 1 when children of this
/// process are still alive in the group, 0 when none is left (ECHILD), -1 with errno on error.
int cps_reap_exited_in_group(pid_t group);

/// The English description of an errno value ("No such file or directory"); thread-safe,
/// never NULL ("Unknown error" for values glibc does not know).
const char *cps_error_description(int errnum);

/// WIFEXITED(status): 1 when the child ended by exiting.
int cps_wait_exited(int status);
/// WEXITSTATUS(status): the exit code, meaningful only when cps_wait_exited is 1.
int cps_wait_exit_code(int status);
/// WIFSIGNALED(status): 1 when the child was ended by a signal.
int cps_wait_signaled(int status);
/// WTERMSIG(status): the signal, meaningful only when cps_wait_signaled is 1.
int cps_wait_term_signal(int status);

// MARK: - Live process groups, for a process that dies of a fatal signal

/// Records a running update's process group (its leader's pid); at most CPS_MAX_GROUPS at once,
/// more are not recorded. Lock-free, so the fatal-signal handler may read the table.
void cps_group_register(pid_t pgid);

/// Forgets a process group once its leader has been reaped.
void cps_group_unregister(pid_t pgid);

/// How many process groups the table holds at most.
#define CPS_MAX_GROUPS 8192

/// Installs the handler of SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP (replacing what
/// was there, Swift's backtracer included): it sends SIGKILL to every recorded process group,
/// then dies of the same signal (default action, raised again) — also for a signal sent with
/// kill, after which the backtracer would have let the process go on. A terminal adapter that
/// installs its own handlers afterwards and calls the previous one on the way out comes first.
/// Runs on an alternate stack (so a stack overflow is handled too). Returns 0 or -1 with errno.
int cps_install_fatal_signal_handlers(void);

#endif
