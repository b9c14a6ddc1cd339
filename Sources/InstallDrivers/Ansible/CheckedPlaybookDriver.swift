#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization

/// A playbook whose check (`ansible-playbook --list-hosts`, seconds) runs inside the session,
/// for the monitor: it opens at once and says what the wait is for instead of a blank screen.
/// The check runs on a thread of its own (it blocks); once it passes, the playbook runs with
/// installtop's plugin. A playbook Ansible refuses ends the session having declared no job
/// (the engine shows that as a failed job, with the reason) and `refusal` says why.
public final class CheckedPlaybookDriver: SessionDriver {
    private let kind: AnsibleJobKind
    private let job: FleetJob
    private let refused = Mutex<String?>(nil)

    public init(kind: AnsibleJobKind, job: FleetJob) {
        self.kind = kind
        self.job = job
    }

    /// Why the check refused the playbook (`nil` while it has not, or when it passed).
    public var refusal: String? { refused.withLock { $0 } }

    public func start(reporter: any SessionReporter) -> any RunningSession {
        let session = CheckingSession()
        EngineThread.detach(named: "installtop-check") { [self] in
            do {
                let driver = try kind.driver(for: job)
                session.checked { driver.start(reporter: reporter) }
            } catch {
                let message = String(describing: error)
                refused.withLock { $0 = message }
                session.refused(message)
            }
        }
        return session
    }
}
