import InstallEngine

/// The outcome of a request whose executable the test has just written, starting it again
/// while exec says "Text file busy": while the test wrote the file, a child that another test
/// was spawning at that moment may have held a copy of the write descriptor until its own
/// exec (the classic ETXTBSY race of multi-threaded programs that spawn). A command that
/// fails to start reports nothing, so `reporter` only sees the run that counts.
func outcomeOfFreshExecutable(_ request: UpdateRunRequest, on backend: ProcessBackend,
                              reporter: any UpdateReporter) async -> UpdateRunOutcome? {
    var outcome: UpdateRunOutcome?
    for _ in 0..<100 {
        outcome = await settledOutcome(of: backend.start(request, reporter: reporter))
        guard case .failedToStart(let reason)? = outcome, reason.hasSuffix("Text file busy") else { break }
    }
    return outcome
}
