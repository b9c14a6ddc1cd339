import RestartScan

/// The JSON of a restart scan (rule 32), as `installtop restarts --json` prints it and
/// `job.completed` carries it under `restarts`.
///
/// `{"restartNeeded":true,"rebootRequired":true,"rebootReasons":[{"reason":"kernel","running":"6.1.0-9-amd64","installed":"6.1.0-18-amd64"},{"reason":"reboot-required","packages":["libc6"]}],"services":["nginx.service"],"processes":[{"pid":812,"command":"nginx","user":"www-data","uid":33,"unit":"nginx.service","owner":"service","ownerName":"nginx.service","files":[{"path":"/usr/lib/x86_64-linux-gnu/libssl.so.3","change":"deleted"}]}],"unreadable":[{"pid":9,"command":"x","reason":"Permission denied"}]}`
/// `unit` is `null` outside a systemd service; `owner` is `service`, `init-script` (a service an
/// init script started outside systemd), `session`, `container` or `process` (bare),
/// `ownerName` its unit, script name, session or container (`null` for a bare process).
/// `services` are what `restart-services` restarts: units, and `/etc/init.d/NAME` for init
/// scripts. `otherRoots` lists processes of other roots in the same form, each with its `root`.
/// Then, added after those (whose names and order stay): `"complete":false` when the scan could
/// not read some processes, `"unreadableProcesses"` how many (as `unreadable` lists them), and
/// `"failedRestarts":[{"service":"nginx.service","reason":"restart exited 0, but …"}]`, the
/// services the restart job this advice completed did not leave running; they are in
/// `services` and make `restartNeeded` true.
public enum RestartAdviceCoding {
    public static func encode(_ advice: RestartAdvice) -> String {
        var object = JSONObject()
        object.add("restartNeeded", !advice.processes.isEmpty || !advice.failedRestarts.isEmpty)
        object.add("rebootRequired", advice.rebootRequired)
        object.addRaw("rebootReasons", list(advice.rebootReasons.map(reason)))
        object.add("services", strings: advice.services)
        object.addRaw("processes", list(advice.processes.map(process)))
        object.addRaw("unreadable", list(advice.unreadable.map(unreadable)))
        object.addRaw("otherRoots", list(advice.otherRoots.map(process)))
        object.add("complete", advice.isComplete)
        object.add("unreadableProcesses", advice.unreadable.count)
        // Only where it explains something: what root could not read.
        if advice.scannedAsRoot && !advice.unreadable.isEmpty { object.add("scannedAsRoot", true) }
        object.addRaw("failedRestarts", list(advice.failedRestarts.map { failed in
            var entry = JSONObject()
            entry.add("service", failed.service)
            entry.add("reason", failed.reason)
            return entry.json
        }))
        return object.json
    }

    /// Reads what `encode` wrote (`restartNeeded`, `rebootRequired`, `services`, `complete` and
    /// `unreadableProcesses` are derived, so not read back). Reboot reasons this version does
    /// not know are left out; a document of an older version without `otherRoots` or
    /// `failedRestarts` has none.
    /// - Throws: `badArgument` naming the member that is missing or of the wrong type.
    public static func decode(_ object: WireObject) throws(WireError) -> RestartAdvice {
        var advice = RestartAdvice()
        for reason in try object.objects("rebootReasons") {
            switch try reason.string("reason") {
            case "kernel": advice.rebootReasons.append(.newerKernel(running: try reason.string("running"), installed: try reason.string("installed")))
            case "reboot-required": advice.rebootReasons.append(.rebootRequiredFile(packages: try reason.strings("packages")))
            default: break
            }
        }
        advice.processes = try object.objects("processes").map(staleProcess)
        if object.members["otherRoots"] != nil {
            advice.otherRoots = try object.objects("otherRoots").map(staleProcess)
        }
        if object.members["failedRestarts"] != nil {
            advice.failedRestarts = try object.objects("failedRestarts").map { failed throws(WireError) in
                FailedRestart(service: try failed.string("service"), reason: try failed.string("reason"))
            }
        }
        advice.scannedAsRoot = try object.bool("scannedAsRoot", default: false)
        for process in try object.objects("unreadable") {
            advice.unreadable.append(UnreadableProcess(
                pid: Int32(truncatingIfNeeded: try process.int("pid")), command: try process.string("command"), reason: try process.string("reason")))
        }
        return advice
    }

    private static func staleProcess(_ process: WireObject) throws(WireError) -> StaleProcess {
        let name = try process.optionalString("ownerName")
        let owner: ProcessOwner = switch (try process.string("owner"), name) {
        case ("service", let unit?): .service(unit: unit)
        case ("init-script", let script?): .initScript(name: script)
        case ("session", let session?): .session(name: session)
        case ("container", let container?): .container(name: container)
        default: .bare
        }
        var files: [StaleFile] = []
        for file in try process.objects("files") {
            files.append(StaleFile(path: try file.string("path"), change: try file.name("change", StaleFile.Change.init(rawValue:), expected: "deleted or replaced")))
        }
        return StaleProcess(
            pid: Int32(truncatingIfNeeded: try process.int("pid")), command: try process.string("command"),
            uid: UInt32(truncatingIfNeeded: try process.int("uid")), user: try process.string("user"), owner: owner, files: files,
            root: try process.optionalString("root"))
    }

    private static func list(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }

    private static func reason(_ reason: RebootReason) -> String {
        var object = JSONObject()
        switch reason {
        case .newerKernel(let running, let installed):
            object.add("reason", "kernel")
            object.add("running", running)
            object.add("installed", installed)
        case .rebootRequiredFile(let packages):
            object.add("reason", "reboot-required")
            object.add("packages", strings: packages)
        }
        return object.json
    }

    private static func process(_ process: StaleProcess) -> String {
        var object = JSONObject()
        object.add("pid", process.pid)
        object.add("command", process.command)
        object.add("user", process.user)
        object.add("uid", Int(process.uid))
        object.add("unit", orNull: process.owner.unit)
        let (owner, ownerName): (String, String?) = switch process.owner {
        case .service(let unit): ("service", unit)
        case .initScript(let name): ("init-script", name)
        case .session(let name): ("session", name)
        case .container(let name): ("container", name)
        case .bare: ("process", nil)
        }
        object.add("owner", owner)
        object.add("ownerName", orNull: ownerName)
        object.addRaw("files", list(process.files.map { file in
            var entry = JSONObject()
            entry.add("path", file.path)
            entry.add("change", file.change.rawValue)
            return entry.json
        }))
        if let root = process.root { object.add("root", root) }
        return object.json
    }

    private static func unreadable(_ process: UnreadableProcess) -> String {
        var object = JSONObject()
        object.add("pid", process.pid)
        object.add("command", process.command)
        object.add("reason", process.reason)
        return object.json
    }
}
