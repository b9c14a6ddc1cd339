import InstallEngine
import Synchronization

/// Where a keeper (`APTVersionKeeping`) holds the keeping it started ahead of apt's hook, until
/// the hook's `keep` finishes it or apt ends without a hook and it is discarded; each at most
/// once.
public final class APTKeepingAheadSlot: Sendable {
    private let ahead = Mutex<APTKeepingAhead?>(nil)

    public init() {}

    /// Starts keeping what `planned` replaces into `folder` (`APTKeepingAhead`).
    public func start(_ planned: [PackageChange], environment: APTEnvironment, into folder: String) {
        let keeping = APTKeepingAhead(planned, keeper: APTVersionKeeper(environment: environment), into: folder)
        ahead.withLock { $0 = keeping }
    }

    /// Keeps what `changes` (apt's plan from its hook) replace into `folder`: finishing the
    /// keeping started ahead, or, when none was, all of it now.
    public func keep(_ changes: [PackageChange], environment: APTEnvironment, into folder: String) -> [APTKeptVersion] {
        take()?.finish(changes) ?? APTVersionKeeper(environment: environment).keep(changes, into: folder)
    }

    /// apt ended or was stopped before its hook: deletes what was kept ahead.
    public func discard() {
        take()?.discard()
    }

    private func take() -> APTKeepingAhead? {
        ahead.withLock { ahead in
            defer { ahead = nil }
            return ahead
        }
    }
}
