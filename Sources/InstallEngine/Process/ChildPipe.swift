import CPosixSpawn
import Glibc

/// One pipe from a child to installtop. Both ends are close-on-exec; the read end is
/// non-blocking for the poller, the write end stays blocking for the child.
struct ChildPipe {
    let readEnd: Int32
    let writeEnd: Int32

    /// Creates the pipe, or returns the errno that prevented it.
    static func make() -> Result<ChildPipe, SystemError> {
        var fds: [Int32] = [-1, -1]
        guard cps_pipe_cloexec(&fds, 0) == 0 else { return .failure(.current) }
        // A daemon may run with 0-2 closed, so a pipe can get a descriptor the child's
        // dup2(…, 1/2/3) would overwrite before using it: keep ours at 4 and above.
        let readEnd = movedAboveStandardDescriptors(fds[0])
        let writeEnd = movedAboveStandardDescriptors(fds[1])
        guard readEnd >= 0, writeEnd >= 0 else {
            let code = cps_errno()
            if readEnd >= 0 { close(readEnd) }
            if writeEnd >= 0 { close(writeEnd) }
            return .failure(SystemError(code: code))
        }
        // A new pipe's read end has no other status flag to keep: no F_GETFL first (one
        // system call less for each of a child's three pipes).
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
        return .success(ChildPipe(readEnd: readEnd, writeEnd: writeEnd))
    }

    /// The three pipes a child's stdout, stderr and third descriptor are spawned with, or the
    /// errno that prevented one (the ones made before it are closed then).
    static func makeThree() -> Result<[ChildPipe], SystemError> {
        var pipes: [ChildPipe] = []
        for _ in 0..<3 {
            switch make() {
            case .success(let pipe):
                pipes.append(pipe)
            case .failure(let error):
                for pipe in pipes { pipe.closeBothEnds() }
                return .failure(error)
            }
        }
        return .success(pipes)
    }

    /// Closes both ends (a pipe that was made but never given to a child).
    func closeBothEnds() {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    /// A pipe from installtop to a child (its control channel): the write end, ours, is
    /// non-blocking, so a child that never reads costs dropped lines, never a stuck engine.
    static func makeControl() -> Result<ChildPipe, SystemError> {
        switch make() {
        case .failure(let error):
            return .failure(error)
        case .success(let pipe):
            _ = fcntl(pipe.readEnd, F_SETFL, fcntl(pipe.readEnd, F_GETFL) & ~O_NONBLOCK)
            _ = fcntl(pipe.writeEnd, F_SETFL, fcntl(pipe.writeEnd, F_GETFL) | O_NONBLOCK)
            return .success(pipe)
        }
    }

    private static func movedAboveStandardDescriptors(_ fd: Int32) -> Int32 {
        guard fd < 4 else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, 4)
        close(fd)
        return moved
    }
}
