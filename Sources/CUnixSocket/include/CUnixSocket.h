#ifndef CUNIXSOCKET_H
#define CUNIXSOCKET_H

#include <stddef.h>
#include <sys/types.h>

/// A listening stream socket bound to `path`: non-blocking, close-on-exec. Returns the
/// descriptor, or -1 with errno set (ENAMETOOLONG when `path` does not fit in sun_path).
int cus_listen(const char *path, int backlog);

/// A blocking stream socket connected to `path` (close-on-exec), or -1 with errno set.
int cus_connect(const char *path);

/// Accepts one connection, non-blocking and close-on-exec; -1 with errno set.
int cus_accept(int listener);

/// The peer's process, user and group ids (SO_PEERCRED); 0 on success, -1 with errno set.
int cus_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/// send(2) that never raises SIGPIPE (MSG_NOSIGNAL) and never blocks (MSG_DONTWAIT).
ssize_t cus_send_nonblocking(int fd, const void *bytes, size_t count);

/// send(2) that never raises SIGPIPE; blocks like write(2).
ssize_t cus_send(int fd, const void *bytes, size_t count);

#endif
