import EngineDaemon

/// One run of a `HostSetupScript` on a host (`SSHCommandRun`), a file fed to its stdin when
/// asked (the .deb), its report lines handed over as they come.
struct RemoteScriptRun: Sendable {
    /// How ssh ended, what it said itself, and whether the script reached its `end`.
    struct Outcome: Sendable {
        /// ssh's exit status (255: ssh itself failed), or 128 + the signal; `nil` when the run
        /// was ended at its deadline.
        var status: Int32?
        /// The last line ssh (or the remote shell, or sudo) wrote on stderr, empty for none.
        var lastWords: String
        var reachedEnd: Bool
    }

    let command: SSHCommand
    /// How long the whole run may take, copying and apt included.
    let deadline: Duration

    /// Runs the script (see `SSHCommandRun.run`), calling `report` with each report line.
    func run(input: String?, report: (HostReportLine) -> Void) -> Outcome {
        var reachedEnd = false
        let ran = SSHCommandRun(command: command, deadline: deadline).run(input: input) { line in
            let parsed = HostReportLine(line)
            if parsed == .end { reachedEnd = true }
            report(parsed)
        }
        return Outcome(status: ran.status, lastWords: ran.lastWords, reachedEnd: reachedEnd)
    }

    /// Why a run said nothing: ssh's last words, or how it ended.
    static func silence(_ outcome: Outcome, deadline: Duration) -> String {
        SSHCommandRun.silence(SSHCommandRun.Outcome(status: outcome.status, lastWords: outcome.lastWords), deadline: deadline)
    }
}
