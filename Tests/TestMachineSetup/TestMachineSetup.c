#include "TestMachineSetup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int prerequisites_status = 0;

int tms_prerequisites_status(void) { return prerequisites_status; }

// The package's folder: SwiftPM names this file relative to it (__FILE__ is
// "Tests/TestMachineSetup/TestMachineSetup.c"), so it is the first folder above the test binary
// (<package>/.build/…), or else above the working directory, that holds this file. False when
// none does (a test binary copied elsewhere), and then nothing is set up.
static bool package_root(char *root, size_t size) {
    const char *file = __FILE__;
    const char *suffix = "/Tests/TestMachineSetup/TestMachineSetup.c";
    if (file[0] == '/') {
        size_t length = strlen(file), suffix_length = strlen(suffix);
        if (length <= suffix_length || length - suffix_length >= size) return false;
        memcpy(root, file, length - suffix_length);
        root[length - suffix_length] = '\0';
        return true;
    }
    char start[2][PATH_MAX];
    bool found[2] = {realpath("/proc/self/exe", start[0]) != NULL, getcwd(start[1], PATH_MAX) != NULL};
    for (int index = 0; index < 2; index++) {
        if (!found[index] || strlen(start[index]) >= size) continue;
        strcpy(root, start[index]);
        for (;;) {
            char candidate[PATH_MAX];
            if (snprintf(candidate, sizeof candidate, "%s/%s", root, file) < (int)sizeof candidate && access(candidate, R_OK) == 0) {
                return true;
            }
            char *slash = strrchr(root, '/');
            if (slash == NULL || slash == root) break;
            *slash = '\0';
        }
    }
    return false;
}

// Runs once per test process, before main: Swift Testing has no hook that runs before every
// suite, and a test that found its tool missing would be too late to install it (the first
// install takes minutes; suites run in parallel). The script holds a lock, so the test processes
// `swift test` starts one after another, or side by side, install only once between them.
// glibc hands constructors main's arguments: a process that only lists the tests (SwiftPM's
// --dump-tests-json, --list-tests) runs none and needs nothing.
__attribute__((constructor)) static void tms_prepare_test_machine(int argc, char **argv, char **envp) {
    (void)envp;
    for (int index = 1; index < argc; index++) {
        if (strcmp(argv[index], "--dump-tests-json") == 0 || strcmp(argv[index], "--list-tests") == 0) return;
    }
    char root[PATH_MAX];
    if (!package_root(root, sizeof root)) return;
    char script[PATH_MAX];
    if (snprintf(script, sizeof script, "%s/Scripts/install-prerequisites", root) >= (int)sizeof script) return;
    if (access(script, X_OK) != 0) return;

    // The script's lines (what it installed, or the apt-get command to run) go to standard
    // error with apt-get's, so that the test runner's standard output stays its own; nothing
    // may wait for a key.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, 2, 1);
    char *script_argv[] = {"/bin/bash", script, "test", NULL};
    pid_t pid;
    int spawned = posix_spawn(&pid, "/bin/bash", &actions, NULL, script_argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        fprintf(stderr, "installtop's tests: %s could not be started: %s\n", script, strerror(spawned));
        prerequisites_status = -1;
        return;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) { prerequisites_status = -1; return; }
    }
    prerequisites_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (prerequisites_status != 0) {
        fprintf(stderr, "installtop's tests: Scripts/install-prerequisites test did not finish (above): "
                        "the tests that need what it names will fail\n");
    }
}
