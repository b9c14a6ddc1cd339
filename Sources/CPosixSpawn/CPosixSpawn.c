#define _GNU_SOURCE
#include "CPosixSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
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
