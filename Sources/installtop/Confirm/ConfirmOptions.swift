import ArgumentParser
import InstallDrivers

/// `--confirm DURATION` and what goes with it on `installtop apt upgrade|full-upgrade|install|remove`
/// and `installtop dnf upgrade|install|remove`
/// (Documentation/COMMIT-CONFIRMED.md): the job is armed, and undone unless confirmed in time.
struct ConfirmOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Arm the job: health checks before and after it, then wait this long (90s, 5m, 1h30m) for `installtop confirm --run RUN`; without it the job's run is undone from its kept versions. Needs the history.",
        valueName: "duration"))
    var confirm: String?

    @Option(name: .customLong("check"), help: ArgumentHelp(
        "With --confirm, a health check of your own: a shell command that must succeed before and after the job (repeatable).",
        valueName: "command"))
    var checks: [String] = []

    @Option(help: ArgumentHelp("With --confirm, a folder whose executables are health checks too, run in name order.", valueName: "dir"))
    var checksDir: String = ConfirmOptions.defaultChecksDirectory

    @Flag(help: "With --confirm, revert at once when a check that passed before the job fails after it, rather than at the deadline.")
    var revertOnRegression = false

    /// The operator's checks when `--checks-dir` names none.
    static let defaultChecksDirectory = "/etc/installtop/confirm.d"

    /// The window's length in seconds; `nil` without `--confirm`.
    var seconds: Double? {
        get throws {
            guard let confirm else { return nil }
            guard let seconds = ConfirmDuration.seconds(confirm), seconds > 0 else {
                throw ValidationError("--confirm takes a duration such as 90s, 5m or 1h30m (a plain number is seconds); got '\(confirm)'")
            }
            return seconds
        }
    }

    /// What arms a job on a host's engine (`--host`/`--hosts`): the window, the checks, and the
    /// checks folder when one was named (else the host's own default); `nil` without `--confirm`.
    var request: ConfirmRequest? {
        get throws {
            guard let seconds = try seconds else { return nil }
            return ConfirmRequest(seconds: seconds, checks: checks,
                                  checksDirectory: checksDir == Self.defaultChecksDirectory ? nil : checksDir,
                                  revertOnRegression: revertOnRegression)
        }
    }

    func validate() throws {
        _ = try seconds
        if confirm == nil && (!checks.isEmpty || revertOnRegression || checksDir != Self.defaultChecksDirectory) {
            throw ValidationError("--check, --checks-dir and --revert-on-regression go with --confirm")
        }
    }
}
