#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RestartScan
import Synchronization

/// One restart scan for the jobs that complete close together (rule 32).
///
/// A scan reads every process's maps: tens of milliseconds on a quiet host, far more with
/// hundreds of processes under load. Scanning once per job made 300 jobs that ended together
/// wait for 300 scans in a row. A job's advice must only see the system after the job ended,
/// so a scan that *started* after the job's last update ended serves it too: a burst of jobs
/// costs at most two scans (the one running when they ended, then one for all of them).
final class SharedRestartScan: Sendable {
    private let advisor: any RestartAdvisor
    private let last = Mutex<(startedAt: Date, advice: RestartAdvice)?>(nil)

    init(advisor: any RestartAdvisor) {
        self.advisor = advisor
    }

    /// The advice for a job whose updates ended by `ended`: the last scan's when it started
    /// later, else a new scan's. Called on the queue's callback queue, one call at a time.
    func advice(forJobEndedAt ended: Date?) -> RestartAdvice {
        if let ended, let last = last.withLock({ $0 }), last.startedAt > ended { return last.advice }
        let startedAt = Date()
        let advice = advisor.advice()
        last.withLock { $0 = (startedAt, advice) }
        return advice
    }
}
