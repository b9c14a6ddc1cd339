#ifndef CSPAWNFLOOR_H
#define CSPAWNFLOOR_H

// For installtop-bench only: the least a runner can cost that gives a child what Documentation/MANIFESTS-AND-DRIVERS.md
// promises, written as plainly as C allows (one thread, no allocation per child), so the
// queue-spawn-overhead benchmark can show how far installtop is from what is possible at all.

/// Called with the update's index before its child is spawned or after it was reaped.
typedef void (*spawn_floor_hook)(int index, void *context);

/// Runs `count` × /bin/true one after another, each the way installtop runs an update: stdin
/// /dev/null, stdout, stderr and fd 3 on pipes, its own process group, signals at their
/// defaults, `extra_environment` (NULL-terminated "NAME=value" strings) added to the parent's;
/// then watched through one epoll (its pipes and a pidfd) until it exited and every pipe is
/// at EOF, reaped, and its process group killed. `before_start` and `after_end` may be NULL.
/// Returns 0, or an errno when a pipe, the spawn or epoll failed (the run stops there).
int spawn_floor_run(int count, const char *const *extra_environment,
                    spawn_floor_hook before_start, spawn_floor_hook after_end, void *context);

#endif
