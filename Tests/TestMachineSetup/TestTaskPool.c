// The test process runs Swift's tasks on a pool of its own, wider than Swift's.
//
// Swift's global executor on Linux has one thread per core: two on these machines and in CI.
// Many tests block the thread they run on for seconds to minutes (a synchronous test that runs
// pytest, builds .debs or waits for apt; a fixture that starts an sshd), and two such tests at
// once stalled every other test that awaits: under load a signal test's poll for its child's
// pid came back after the child's 300 s had run out, and tests of kills and timeouts timed out
// waiting for outcomes that had long arrived. Every such wait would otherwise need a thread of
// its own; here the tasks get threads enough instead.
//
// The runtime's hook for the global executor (`swift_task_enqueueGlobal_hook`, in the runtime
// since Swift 5.5) hands each job to this pool. A worker is added whenever a job arrives and
// every worker is busy, up to two per core (at least 4); workers never end. Jobs run in the order they came,
// on the generic executor, as the global executor runs them; priorities are not honoured
// (nothing in the tests depends on them). The installtop binaries are not affected: only the
// test process links this file.

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/// At most two threads per core, and at least 4: room beside the tests that block at one time,
/// without letting so many tests run at once that the load itself (65 on 2 cores with four a
/// core) outlasts the tests' deadlines. Set as the process starts.
static int max_workers = 4;

typedef struct { void *identity; uintptr_t implementation; } tms_executor_ref;
typedef void (__attribute__((swiftcall)) *tms_original_enqueue)(void *job);
extern void (__attribute__((swiftcall)) *swift_task_enqueueGlobal_hook)(void *job, tms_original_enqueue original);
extern void __attribute__((swiftcall)) swift_job_run(void *job, tms_executor_ref executor);

struct tms_queued_job {
    void *job;
    double queued_at;
    struct tms_queued_job *next;
};

/// Seconds on the monotonic clock.
static double tms_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/// Whether the starvation watch runs (below): only then are jobs and workers timed, so that a
/// run without it pays no clock reading per job. Set before the pool takes its first job.
static int watching;

/// What each worker runs, for the starvation watch: its thread id and since when it runs its
/// current job (0 while idle).
#define TMS_MAX_WORKERS 256
static pid_t worker_tids[TMS_MAX_WORKERS];
static double worker_busy_since[TMS_MAX_WORKERS];

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_wake = PTHREAD_COND_INITIALIZER;
static struct tms_queued_job *first_job, *last_job;
static int workers, idle_workers, queued_jobs;

static void *tms_pool_worker(void *slot_pointer) {
    int slot = (int)(intptr_t)slot_pointer;
    pthread_mutex_lock(&pool_lock);
    worker_tids[slot] = (pid_t)syscall(SYS_gettid);
    pthread_mutex_unlock(&pool_lock);
    for (;;) {
        pthread_mutex_lock(&pool_lock);
        worker_busy_since[slot] = 0;
        idle_workers += 1;
        while (first_job == NULL) pthread_cond_wait(&pool_wake, &pool_lock);
        idle_workers -= 1;
        if (watching) worker_busy_since[slot] = tms_now();
        queued_jobs -= 1;
        struct tms_queued_job *next = first_job;
        first_job = next->next;
        if (first_job == NULL) last_job = NULL;
        pthread_mutex_unlock(&pool_lock);
        void *job = next->job;
        free(next);
        tms_executor_ref generic = {0, 0};
        swift_job_run(job, generic);
    }
    return NULL;
}

/// Starts a worker with every signal blocked, as Swift's own pool threads have them: a test's
/// signals are for the processes it starts, never for the test process.
static void tms_pool_add_worker(void) {
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    pthread_t thread;
    if (workers < TMS_MAX_WORKERS && pthread_create(&thread, NULL, tms_pool_worker, (void *)(intptr_t)workers) == 0) {
        pthread_detach(thread);
        workers += 1;
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
}

static void __attribute__((swiftcall)) tms_pool_enqueue(void *job, tms_original_enqueue original) {
    struct tms_queued_job *queued = malloc(sizeof *queued);
    pthread_mutex_lock(&pool_lock);
    // One more job than idle workers to take it: another worker, while there is room.
    if (queued_jobs >= idle_workers && workers < max_workers) tms_pool_add_worker();
    if (queued == NULL || workers == 0) {
        // No memory, or no worker could ever be started: the runtime's own executor runs it.
        pthread_mutex_unlock(&pool_lock);
        free(queued);
        original(job);
        return;
    }
    queued->job = job;
    queued->queued_at = watching ? tms_now() : 0;
    queued->next = NULL;
    if (last_job != NULL) last_job->next = queued; else first_job = queued;
    last_job = queued;
    queued_jobs += 1;
    pthread_cond_signal(&pool_wake);
    pthread_mutex_unlock(&pool_lock);
}

/// The starvation watch, on when INSTALLTOP_TEST_POOL_WATCH names a folder. Once a second it
/// looks how long the oldest queued job has waited, and every 10 s it appends the longest wait
/// seen, the queue's length and the busy workers to `pool-<pid>.log` there: how long a test's
/// wake-up waited for a thread through a whole run. With INSTALLTOP_TEST_POOL_WATCH_BACKTRACES=1
/// too, a wait of 15 s also writes each worker's busy time and gdb's backtrace of every thread
/// into `starved-<pid>-<n>.txt` (at most once a minute): that is how the full run's stalls were
/// traced to synchronous tests. gdb stops the whole process for seconds while it writes, so a
/// run with backtraces can fail tests that need a reply within seconds.
static void *tms_pool_watch(void *folder_pointer) {
    const char *folder = folder_pointer;
    const char *backtraces = getenv("INSTALLTOP_TEST_POOL_WATCH_BACKTRACES");
    int with_backtraces = backtraces != NULL && backtraces[0] == '1';
    char log_path[4096];
    snprintf(log_path, sizeof log_path, "%s/pool-%d.log", folder, (int)getpid());
    double started = tms_now(), last_dump = 0, longest_wait = 0;
    int dumps = 0, seconds = 0;
    for (;;) {
        sleep(1);
        seconds += 1;
        char report[8192];
        size_t used = 0;
        pthread_mutex_lock(&pool_lock);
        double now = tms_now();
        double waited = first_job == NULL ? 0 : now - first_job->queued_at;
        if (waited > longest_wait) longest_wait = waited;
        int queued = queued_jobs, busy = workers - idle_workers;
        if (with_backtraces && waited >= 15 && now - last_dump >= 60) {
            used += (size_t)snprintf(report + used, sizeof report - used,
                                     "oldest job waited %.1f s; %d queued; %d workers, %d idle\n",
                                     waited, queued_jobs, workers, idle_workers);
            for (int slot = 0; slot < workers && used < sizeof report - 100; slot++) {
                double busy_for = worker_busy_since[slot] == 0 ? 0 : now - worker_busy_since[slot];
                used += (size_t)snprintf(report + used, sizeof report - used,
                                         "worker LWP %d busy for %.1f s\n", (int)worker_tids[slot], busy_for);
            }
        }
        pthread_mutex_unlock(&pool_lock);
        if (seconds % 10 == 0) {
            FILE *log = fopen(log_path, "a");
            if (log != NULL) {
                fprintf(log, "%6.0f s: longest wait %6.1f s, %5d queued, %d busy\n",
                        now - started, longest_wait, queued, busy);
                fclose(log);
            }
            longest_wait = 0;
        }
        if (used == 0) continue;
        last_dump = now;
        dumps += 1;
        char path[4096];
        snprintf(path, sizeof path, "%s/starved-%d-%d.txt", folder, (int)getpid(), dumps);
        FILE *file = fopen(path, "w");
        if (file == NULL) continue;
        fputs(report, file);
        fclose(file);
        char command[8192];
        snprintf(command, sizeof command,
                 "gdb -p %d -batch -ex 'thread apply all bt 40' >> '%s' 2>&1", (int)getpid(), path);
        if (system(command) != 0) { /* the report above is still there */ }
    }
    return NULL;
}

/// How many test cases Swift Testing runs at once: eight a core, and at least 16 (16 on these
/// machines' two cores), unless the environment already says. Unbounded (Swift Testing's default here), every test
/// of the run starts at once, and the first job of each waits in this pool's queue: the watch
/// above found 2,304 jobs queued as the run began and still 1,657 after two minutes, behind
/// synchronous tests that each hold a worker for seconds (apt-get in a private root, reading a
/// pending snapshot), and an awaiting test's every wake-up waited behind all of them, 163 s at
/// worst; its deadlines of a minute ran out though nothing was wrong (CI's failures of
/// `eventually(timeout: .seconds(60))` and of a child's 60 s to settle). With the width bounded,
/// a wake-up waits behind at most that many test cases' jobs.
static void tms_bound_parallel_tests(long cores) {
    const char *name = "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH";
    char width[32];
    snprintf(width, sizeof width, "%ld", cores * 8 > 16 ? cores * 8 : 16);
    setenv(name, width, 0);
}

__attribute__((constructor)) static void tms_install_task_pool(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores * 2 > max_workers) max_workers = (int)(cores * 2);
    const char *watch = getenv("INSTALLTOP_TEST_POOL_WATCH");
    watching = watch != NULL && watch[0] != '\0';
    swift_task_enqueueGlobal_hook = tms_pool_enqueue;
    tms_bound_parallel_tests(cores);
    if (watching) {
        // Signals blocked, as the workers have them: they are for the processes tests start.
        sigset_t all, previous;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &previous);
        pthread_t thread;
        if (pthread_create(&thread, NULL, tms_pool_watch, (void *)watch) == 0) pthread_detach(thread);
        pthread_sigmask(SIG_SETMASK, &previous, NULL);
    }
}
