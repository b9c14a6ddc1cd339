import EngineWire
import InstallDrivers
import InstallEngine
import InstallHistory
import RestartScan

/// The engine of a process that owns one (`run`, `demo` and `serve`): the job queue on real
/// child processes and the install history recording its events, built in one place.
struct EngineHost {
    let queue: JobQueue
    /// Where the history is read from: the store the queue records into, or why there is none.
    let history: HistorySource

    /// The job kinds installtop runs besides lists of commands, registered here once: the
    /// manifest reader, `submit`, the planner of `run` and the engine of `serve` take these.
    /// A new kind is its folder plus one line here. Each call makes new kinds: call
    /// `removeFiles()` on them when no job can still start (Ansible's plugin folder).
    /// - Parameter ansiblePlaybook: the ansible-playbook to run; `nil` finds it on `PATH`.
    /// - Parameter keepers: keep the versions package jobs replace, for undo (`run`, `serve`);
    ///   `nil` (validating, submitting to another engine) keeps none.
    /// - Parameter aptConfig: the root of apt jobs that name none (`serve --apt-config`).
    static func kinds(ansiblePlaybook: String? = nil, keepers: HistoryKeepers? = nil, aptConfig: String? = nil) -> JobKinds {
        var keeping: (@Sendable (PackageJob) -> (any APTVersionKeeping)?)?
        var keepingDNF: (@Sendable (DNFJob) -> (any DNFVersionKeeping)?)?
        if let keepers {
            keeping = { job in keepers.keeper(for: job) }
            keepingDNF = { job in keepers.keeper(for: job) }
        }
        return JobKinds([
            APTJobKind(keepers: keeping, defaultAPTConfig: aptConfig),
            ansibleKind(executable: ansiblePlaybook),
            DNFJobKind(helperFolder: dnfHelperFolder(), keepers: keepingDNF),
            DriverJobKind(),
        ])
    }

    /// A folder for the dnf helper this binary embeds, written when a dnf job first needs it.
    static func dnfHelperFolder() -> DNFHelperFolder {
        DNFHelperFolder(files: DNFHelperFiles.files.map { ShippedFilesFolder.File(name: $0.name, text: $0.text) })
    }

    /// Where the observed jobs of an engine that serves (`serve`, `hooks watch`) come from,
    /// registered here once, next to the kinds: dpkg's hooks, and its lock and log in the root
    /// `aptConfig` names (this system's when `nil`). A new source is one more line here.
    static func observedSources(aptConfig: String?) -> ObservedSources {
        ObservedSources([
            DpkgObservedSource(dpkgLog: DpkgLogSource.resolve(aptConfig: aptConfig)),
        ])
    }

    /// Ansible's kind with the callback plugin this binary embeds (`installtop ansible` runs it
    /// alone).
    static func ansibleKind(executable: String?) -> AnsibleJobKind {
        AnsibleJobKind(executable: executable, pluginFiles: DriverFiles.files.map { ($0.name, $0.text) })
    }

    /// Builds the queue from `scheduling` (one job at a time with the manifest's graces when
    /// `nil`) and attaches the history unless `--no-history`: rows left by writers that died are
    /// recovered first (an observed job's from dpkg's state, `ObservedRowRecovery`). A history that cannot be opened is no reason to refuse the installs:
    /// `warnings` gets why, and `history` says so.
    /// - Parameter runSlots: the run slot the recorder shares with a job's keeper, by job
    ///   (`RunnableJob.runSlot`).
    init(scheduling: SchedulingOptions?, history options: HistoryOptions, warnings: Warnings,
         runSlots: @escaping @Sendable (JobDescriptor) -> JobRunSlot? = { _ in nil }) {
        queue = JobQueue(backend: ProcessBackend(), concurrency: scheduling?.concurrency ?? 1,
                         configuration: scheduling?.configuration ?? EngineConfiguration(), restartAdvisor: RestartScanner())
        guard !options.noHistory else {
            history = .off("history is off (--no-history)")
            return
        }
        do {
            let store = try HistoryStore(path: options.historyDb ?? HistoryStore.defaultPath())
            try store.recoverFromDeadEngines()
            let recorder = HistoryRecorder(store: store, onDeferredError: { error in
                warnings.add("history not recorded: \(error)")
            }, sharedRunSlot: runSlots)
            queue.subscribe { event in
                do { try recorder.record(event) } catch { warnings.add("history not recorded: \(error)") }
            }
            history = .store(store)
        } catch {
            warnings.add("running without history: \(error)")
            history = .off("history is unavailable: \(error)")
        }
    }
}
