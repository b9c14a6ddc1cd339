import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import InstallHistory
import TextBasics

/// `installtop demo`: runs the bundled demo manifest (`Examples/demo/`), real child processes
/// included, with a history of its own.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the bundled demo: successes, a failure, a reboot, an indeterminate update, a slow one worth aborting, and real packages installed by apt in a private root.",
        discussion: """
            The demo's scripts are written to a fresh temporary folder and removed afterwards, so \
            it works from any directory. INSTALLTOP_DEMO_SPEED=4 makes every script four times faster. \
            Its results go to a history of their own (demo-history.sqlite3 beside the real one), so \
            the demo's made-up updates never feed the ETAs of real ones; --history-db chooses another.

            After the manifest's jobs comes a real apt job, run without asking: a few small \
            packages (demo-libfoo and demo-foo, which depends on it; a slow postinst; a failing \
            one; one that asks for a reboot) are built with dpkg-deb into a private apt root in a \
            temporary folder, planned by apt and installed there, one bar per package, never \
            touching this machine's packages; the root is removed when the demo ends. Without \
            dpkg-deb or apt-get the demo says so and runs without it; --export and \
            --print-manifest leave it out.
            """
    )

    @Flag(help: "Print the demo's manifest and exit.")
    var printManifest = false

    @Option(help: ArgumentHelp("Write the demo's manifest and scripts into this folder (new, or without those files) and exit; `installtop run PATH/demo.yaml` runs them.", valueName: "path"))
    var export: String?

    @OptionGroup var options: RunOptions

    @OptionGroup var scheduling: SchedulingOptions

    func validate() throws {
        if printManifest && export != nil { throw ValidationError("--print-manifest and --export exclude each other") }
    }

    func run() throws {
        if printManifest {
            StandardOutput.stdout.write(DemoFolder.manifestText)
            return
        }
        if let export {
            do {
                let folder = try DemoFolder.export(to: export)
                StandardOutput.stdout.line("Wrote the demo to \(folder.path); run it with: installtop run \(folder.manifestPath)")
                return
            } catch {
                StandardOutput.stderr.line("installtop: \(error)")
                throw ExitCode(1)
            }
        }
        // From its first file to its last removal the demo latches SIGINT, SIGTERM and SIGHUP
        // wherever nothing else handles them: the monitor installs its own handlers and gives the
        // latch back when it ends, so a terminal closed right after `q` (SIGHUP while it quits)
        // no longer kills the process before the folder and the apt root are removed.
        let (status, _) = SignalLatch.catching { runLatched() }
        throw ExitCode(status.rawValue)
    }

    /// Writes the demo's files, builds its apt job, runs everything and removes what it wrote.
    private func runLatched() -> ExitStatus {
        let folder: DemoFolder
        do {
            folder = try DemoFolder.createTemporary()
        } catch {
            StandardOutput.stderr.line("installtop: cannot write the demo's files: \(ErrorText.reason(error))")
            return .failed
        }
        defer { folder.remove() }
        let manifest: Manifest
        do {
            manifest = try ManifestLoader.load(contentsOfFile: folder.manifestPath)
        } catch {
            // The demo manifest is ours; a failure here is a bug worth showing in full.
            StandardOutput.stderr.line("installtop: the bundled demo manifest is invalid:\n\(error.description)")
            return .invalidUsage
        }
        var options = options
        if !options.history.noHistory && options.history.historyDb == nil {
            options.history.historyDb = Self.historyPath()
        }
        // The kinds' jobs (apt's) are built and planned before the run starts, so their plans
        // are fixed like a manifest's package job, and queued last, so the made-up jobs show
        // first. Building takes a moment: a Ctrl-C meanwhile must still remove their roots (and
        // the demo's folder), so it is latched rather than left to kill the process.
        let kindJobs = EngineHost.registry.compactMap { $0.demoJob() }
        defer { for kindJob in kindJobs { kindJob.remove() } }
        if SignalLatch.caught != nil {
            StandardOutput.stderr.line("installtop: interrupted before the demo started")
            return .aborted
        }
        let jobs = manifest.jobs.map(RunnableJob.init) + kindJobs.map(\.job)
        return RunSession(jobs: jobs, options: options, scheduling: scheduling).run()
    }

    /// The demo's own history: `demo-history.sqlite3` in the folder of the default history.
    static func historyPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        PathText.parent(of: HistoryStore.defaultPath(environment: environment)) + "/demo-history.sqlite3"
    }
}
