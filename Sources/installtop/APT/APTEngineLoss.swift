import EngineWire
import InstallDrivers
import InstallHistory
import RestartScan

/// What the command following an apt job in the machine's engine says when that engine went
/// away before the job ended (killed, crashed): only what it can see. While dpkg's lock is held
/// there, apt and dpkg go on without the engine; once it is free, what dpkg left half-way and the
/// command that finishes every one of it (`DpkgFinishCommand`: `installtop apt repair RUN` where
/// `dpkg --configure -a` would leave a package half-installed), the run first settled from dpkg
/// in the engine's history as its next reader would (`recoverFromDeadEngines`).
enum APTEngineLoss {
    /// The lines to say, or none when the engine still runs or dpkg is consistent.
    static func lines(engine: EngineIdentity) -> [String] {
        // The job's end was not seen; an engine that still runs only closed the link. A zombie
        // (killed, not yet reaped by its parent) runs no more.
        if let stat = ProcFS().stat(of: engine.pid), !stat.isDead { return [] }
        guard let environment = try? APTEnvironment.resolve(aptConfig: engine.aptConfig, chroot: nil) else { return [] }
        if case .held(let pid) = DpkgLock.state(administrativeDirectory: environment.administrativeDirectory) {
            return ["apt and dpkg go on without the engine (pid \(pid) holds dpkg's lock); installtop pending says what they leave"]
        }
        let halfWay = APTInterruptedDpkg.halfWay(in: environment)
        guard !halfWay.isEmpty else { return [] }
        var run: Int64?
        if let path = engine.history, let store = try? HistoryStore(path: path, createIfMissing: false) {
            try? store.recoverFromDeadEngines()
            let needsArchive = halfWay.filter { !$0.value.finishesWithConfigure }.keys.sorted()
            run = needsArchive.isEmpty ? nil : try? store.newestAptRun(naming: needsArchive)
        }
        let packages = halfWay.keys.sorted().map { "\($0) \(halfWay[$0]?.description ?? "")" }.joined(separator: ", ")
        guard let command = DpkgFinishCommand.text(for: halfWay, run: run, aptConfig: engine.aptConfig) else { return [] }
        return ["dpkg was left with \(packages): \(command) finishes \(halfWay.count == 1 ? "it" : "them")"]
    }
}
