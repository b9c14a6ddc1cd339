import RestartScan

/// Says what still runs deleted or replaced code after a job (rule 32): `RestartScanner` on a
/// host, a fixed answer in tests.
public protocol RestartAdvisor: Sendable {
    /// Called on the queue's callback queue when a job that ran an update completes; it should
    /// be quick, since the job's `jobCompleted` waits for it.
    func advice() -> RestartAdvice
}

extension RestartScanner: RestartAdvisor {
    public func advice() -> RestartAdvice { scan() }
}
