import Synchronization

/// The hosts' bars of `installtop enroll` on a terminal (`EnrollProgress`), shared by the
/// threads enrolling hosts at once: each change redraws the block on stdout, one writer at a
/// time, so two hosts' redraws never interleave.
final class EnrollBars: Sendable {
    private let progress: Mutex<EnrollProgress>

    init(_ progress: EnrollProgress) {
        self.progress = Mutex(progress)
        draw { _ in }
    }

    /// Applies `change` and redraws the block, at the terminal's width now.
    func draw(_ change: (inout EnrollProgress) -> Void) {
        progress.withLock { progress in
            change(&progress)
            StandardOutput.stdout.write(progress.redraw(width: OutputWidth.current()))
        }
    }
}
