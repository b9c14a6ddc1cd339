import Foundation
import Glibc

/// The least that reading a child's output can cost: its stdout, stderr and fd 3 on pipes,
/// read by this thread in a `poll()` loop that keeps nothing, 64 KiB at a time. installtop's
/// poller, the driver and everything after it are measured against this.
enum ReadingFloor {
    struct Result {
        var status: Int32
        /// How many times `poll()` returned.
        var wakeUps: Int
        var bytes: Int
    }

    /// Runs `arguments` and reads its three pipes until the last one closes, then waits for it;
    /// `nil` when it could not be started.
    static func run(_ arguments: [String], environment: [String: String]) -> Result? {
        var ends: [(read: Int32, write: Int32)] = []
        defer { for end in ends { close(end.read) } }
        for _ in 0..<3 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return nil }
            // This process starts no other child meanwhile; the child gets its ends by dup2.
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            ends.append((fds[0], fds[1]))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (index, end) in ends.enumerated() { posix_spawn_file_actions_adddup2(&actions, end.write, Int32(index + 1)) }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
        for end in ends { close(end.write) }
        guard spawned == 0 else { return nil }

        var result = Result(status: -1, wakeUps: 0, bytes: 0)
        var descriptors = ends.map { pollfd(fd: $0.read, events: Int16(POLLIN), revents: 0) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        while descriptors.contains(where: { $0.fd >= 0 }) {
            guard poll(&descriptors, nfds_t(descriptors.count), -1) > 0 else { continue }
            result.wakeUps += 1
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = read(descriptors[index].fd, buffer, 65_536)
                if count > 0 {
                    result.bytes += count
                } else if count == 0 || errno != EINTR {
                    // A negative fd is left out of poll(); the read end is closed by the defer.
                    descriptors[index].fd = -1
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        result.status = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return result
    }
}
