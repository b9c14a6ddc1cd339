import Glibc
import InstallEngine

/// Where an apt job acts, as apt itself resolves it: which system (this one or a chroot), which
/// configuration (`APT_CONFIG`), which dpkg database and which root. Read once from `apt-config`
/// before the plan, so the driver, dpkg's repair, the final `dpkg-query` check and the reboot
/// list all look at the same root. Every apt and dpkg command of the job is built through
/// `command(_:)` or `dpkgCommand(_:)`, which run it inside the chroot when there is one.
public struct APTEnvironment: Sendable, Hashable {
    /// The folder apt and dpkg run in through `chroot` (an image or a container's root being
    /// patched); `nil` runs them on this system.
    public var chroot: String?
    /// The file `APT_CONFIG` names for every apt and dpkg command; `nil` for the system's. In a
    /// chroot apt reads it inside the chroot.
    public var aptConfig: String?
    /// dpkg's database (`Dir::State::status`'s folder) as installtop reads it, e.g.
    /// `/var/lib/dpkg`, or `CHROOT/var/lib/dpkg` in a chroot.
    public var administrativeDirectory: String
    /// The root dpkg installs into (its `--root` in `DPkg::Options`) as installtop reads it: `/`
    /// for the system, the chroot's folder for a chroot.
    public var root: String
    /// `DPkg::Options`, which dpkg's own commands (the repair, the audit) need as apt gives them
    /// (paths inside the chroot when there is one).
    public var dpkgOptions: [String]
    /// `Dir::Bin::dpkg`, inside the chroot when there is one.
    public var dpkg: String
    /// The `chroot` program that enters `chroot`.
    public var chrootCommand: String
    /// apt's archive cache (`Dir::Cache::archives`) as installtop reads it, where apt keeps the
    /// .debs it fetched (never those of `file:` sources, Documentation/PACKAGE-FACTS.md); `nil` when not known.
    public var archiveCache: String?
    /// `DPkg::Path`, the `PATH` apt gives dpkg, as the configuration sets it; `nil` when it sets
    /// none (apt's default then).
    public var dpkgPath: String?
    /// apt's marks of automatically installed packages (`Dir::State::extended_states`) as
    /// installtop reads it; `nil` when not known (`APTAutoMarks` asks apt-mark then).
    public var extendedStates: String?
    /// apt's package lists (`Dir::State::lists`) as installtop reads it, whose files `apt-get
    /// update` rewrites (how old they are says when apt last looked for updates); `nil` when
    /// not known.
    public var lists: String?

    /// The variables every apt and dpkg command of the job gets: `APT_CONFIG` when set, no
    /// questions from debconf or apt-listchanges, and this engine's mark
    /// (`InstalltopRunMarker`), so that an engine watching the same dpkg through the hooks or
    /// its log never records a step of this job (the transaction, a repair, `apt-get check`) as
    /// an observed job. The transaction's own apt-get gets a fuller mark (`transactionEnvironment`).
    public var commandEnvironment: [String: String] {
        var environment = APTCommandLine.environment
        if let aptConfig { environment["APT_CONFIG"] = aptConfig }
        environment[InstalltopRunMarker.variable] = InstalltopRunMarker.thisEngine().text
        return environment
    }

    /// `commandEnvironment` for the apt-get that runs `request`'s transaction: the operation
    /// and, once the job exists, its name for apt's hooks (`INSTALLTOP_OPERATION`,
    /// `INSTALLTOP_JOB`), and a mark that names the job (before it exists, the request: `apt
    /// upgrade`) and its history run when one is reserved.
    public func transactionEnvironment(for request: PackageRequest, jobName: String?, run: Int64?) -> [String: String] {
        var environment = commandEnvironment
        environment["INSTALLTOP_OPERATION"] = request.operation.name
        if let jobName { environment["INSTALLTOP_JOB"] = jobName }
        let marker = InstalltopRunMarker.thisEngine(run: run, job: jobName ?? APTJobKind.summary(of: request))
        environment[InstalltopRunMarker.variable] = marker.text
        return environment
    }

    /// `ROOT/run/reboot-required.pkgs`: Debian's list of the packages that asked for a reboot,
    /// in the job's root (never the host's for a job in another root).
    public var rebootPackagesPath: String { path(inRoot: "/run/reboot-required.pkgs") }

    public init(aptConfig: String?, administrativeDirectory: String, root: String, dpkgOptions: [String], dpkg: String = "/usr/bin/dpkg",
                chroot: String? = nil, chrootCommand: String = "/usr/sbin/chroot", archiveCache: String? = nil) {
        self.chroot = chroot
        self.archiveCache = archiveCache
        self.aptConfig = aptConfig
        self.administrativeDirectory = administrativeDirectory
        self.root = root
        self.dpkgOptions = dpkgOptions
        self.dpkg = dpkg
        self.chrootCommand = chrootCommand
    }

    /// `arguments` (an apt or dpkg command, first an absolute path) as the job runs it: as given
    /// on this system, `chroot CHROOT arguments…` in a chroot. Every descriptor (apt's Status-Fd
    /// on fd 3) and `commandEnvironment` pass through `chroot` unchanged.
    public func command(_ arguments: [String]) -> [String] {
        guard let chroot else { return arguments }
        return [chrootCommand, chroot] + arguments
    }

    /// `dpkg` with apt's `DPkg::Options` and then `arguments` (`--configure -a`, `--audit`), run
    /// where the job acts (through `command(_:)`).
    public func dpkgCommand(_ arguments: [String]) -> [String] {
        command([dpkg] + dpkgOptions + arguments)
    }

    /// The configuration apt itself hands a version 3 `Pre-Install-Pkgs` hook (`Key=value`
    /// lines before the first blank one, `%20` for a space): what this very apt run uses,
    /// `-o` and `-c` options included, without asking apt-config; `nil` when the input holds
    /// none. `aptConfig` is only passed on to the commands run later.
    public static func fromHookInput(_ lines: [String], aptConfig: String?) -> APTEnvironment? {
        var dump: [String] = []
        for line in lines {
            if line.isEmpty { break }
            guard !line.hasPrefix("VERSION "), let equals = line.firstIndex(of: "=") else { continue }
            let value = line[line.index(after: equals)...].split(separator: "%20", omittingEmptySubsequences: false).joined(separator: " ")
            guard !value.contains("\"") else { continue }
            dump.append("\(line[..<equals]) \"\(value)\";")
        }
        guard !dump.isEmpty else { return nil }
        return parse(dump: dump.joined(separator: "\n"), aptConfig: aptConfig)
    }

    /// Asks `apt-config dump` for the configuration `aptConfig` (or the system's) gives, inside
    /// `chroot` when one is named.
    /// - Throws: `APTPlanError` when apt-config is missing (on this system or in the chroot), the
    ///   chroot cannot be entered (not root, no such folder), apt refuses the configuration, or
    ///   `aptConfig` names no file (apt would only warn and act on the system's own packages).
    ///   Cancelled under `cancellation` (apt-config killed), it is apt's refusal.
    public static func resolve(aptConfig: String?, chroot: String? = nil, aptConfigCommand: String = "/usr/bin/apt-config",
                               cancellation: CommandCancellation? = nil) throws(APTPlanError) -> APTEnvironment {
        if let aptConfig {
            let path = Self.path(aptConfig, under: chroot ?? "/")
            if access(path, F_OK) != 0 {
                throw APTPlanError(.aptRefused, "the apt configuration \(path) does not exist (apt would read this system's own "
                    + "configuration instead, and act on its packages)")
            }
        }
        let place = APTEnvironment(aptConfig: aptConfig, administrativeDirectory: "/", root: "/", dpkgOptions: [], chroot: chroot)
        let dump = SystemCommand.run(place.command([aptConfigCommand, "dump"]), environment: place.commandEnvironment, cancellation: cancellation)
        if dump.failedToStart { throw APTPlanError(.aptMissing, "apt is not installed here (\(dump.stderr))") }
        // chroot exits 127 when the command is missing inside, 125 when it cannot enter.
        if let chroot, dump.status == 127 { throw APTPlanError(.aptMissing, "apt is not installed in \(chroot) (\(dump.stderr))") }
        guard dump.status == 0 else {
            throw APTPlanError(.aptRefused, APTPlanError.aptMessage(dump.stderr, otherwise: "apt-config exited with status \(dump.status)"))
        }
        return parse(dump: dump.stdout, aptConfig: aptConfig, chroot: chroot)
    }

    /// Reads `apt-config dump`'s `Key "value";` lines; in a chroot, the database and root apt
    /// names are mapped to where installtop reads them (under the chroot's folder).
    static func parse(dump: String, aptConfig: String?, chroot: String? = nil) -> APTEnvironment {
        var values: [String: String] = [:]
        var dpkgOptions: [String] = []
        for line in dump.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let key = String(line[..<space])
            var value = line[line.index(after: space)...]
            guard value.hasPrefix("\""), let close = value.lastIndex(of: "\""), close > value.startIndex else { continue }
            value = value[value.index(after: value.startIndex)..<close]
            if key == "DPkg::Options::" || key == "Dpkg::Options::" {
                if !value.isEmpty { dpkgOptions.append(String(value)) }
            } else {
                values[key] = String(value)
            }
        }
        // Dir::State::status is relative to Dir::State, which is relative to Dir, unless absolute.
        func resolved(_ path: String?, under base: String) -> String? {
            guard let path else { return nil }
            return path.hasPrefix("/") ? path : base + (base.hasSuffix("/") ? "" : "/") + path
        }
        let dir = values["Dir"] ?? "/"
        let state = resolved(values["Dir::State"] ?? "var/lib/apt", under: dir) ?? dir
        let status = resolved(values["Dir::State::status"] ?? "/var/lib/dpkg/status", under: state) ?? "/var/lib/dpkg/status"
        let root = dpkgOptions.lazy.compactMap { option -> String? in
            for prefix in ["--root=", "--instdir="] where option.hasPrefix(prefix) { return String(option.dropFirst(prefix.count)) }
            return nil
        }.first ?? "/"
        let cache = resolved(values["Dir::Cache"] ?? "var/cache/apt", under: dir) ?? dir
        let archives = resolved(values["Dir::Cache::archives"] ?? "archives/", under: cache) ?? cache
        let extendedStates = resolved(values["Dir::State::extended_states"] ?? "extended_states", under: state) ?? state
        let lists = resolved(values["Dir::State::lists"] ?? "lists/", under: state) ?? state
        let folder = String(status[..<(status.lastIndex(of: "/") ?? status.endIndex)])
        let admin = folder.isEmpty ? "/" : folder
        return APTEnvironment(aptConfig: aptConfig, administrativeDirectory: chroot.map { path(admin, under: $0) } ?? admin,
                              root: chroot.map { path(root, under: $0) } ?? root, dpkgOptions: dpkgOptions,
                              dpkg: values["Dir::Bin::dpkg"] ?? "/usr/bin/dpkg", chroot: chroot,
                              archiveCache: chroot.map { path(archives, under: $0) } ?? archives)
            .with(extendedStates: chroot.map { path(extendedStates, under: $0) } ?? extendedStates)
            .with(dpkgPath: values.first { $0.key.lowercased() == "dpkg::path" }?.value)
            .with(lists: chroot.map { path(lists, under: $0) } ?? lists)
    }

    /// The same with `lists` set.
    func with(lists: String?) -> APTEnvironment {
        var environment = self
        environment.lists = lists
        return environment
    }

    /// The same with `extendedStates` set.
    func with(extendedStates: String?) -> APTEnvironment {
        var environment = self
        environment.extendedStates = extendedStates
        return environment
    }

    /// The same with `dpkgPath` set.
    func with(dpkgPath: String?) -> APTEnvironment {
        var environment = self
        environment.dpkgPath = dpkgPath
        return environment
    }

    /// `path` (absolute, as seen from the job's root) where installtop reads it.
    public func path(inRoot path: String) -> String {
        Self.path(path, under: root)
    }

    /// `path` (this system's, under the chroot's folder) as apt and dpkg inside the chroot name
    /// it: without that folder; unchanged without a chroot, or for a path outside it.
    public func pathInsideChroot(_ path: String) -> String {
        guard let chroot else { return path }
        let prefix = chroot.hasSuffix("/") ? String(chroot.dropLast()) : chroot
        return path.hasPrefix(prefix + "/") ? String(path.dropFirst(prefix.count)) : path
    }

    /// The absolute `path` under the folder `base`, one slash between them.
    static func path(_ path: String, under base: String) -> String {
        guard base != "/" else { return path }
        let folder = base.hasSuffix("/") ? String(base.dropLast()) : base
        return path == "/" ? folder : folder + path
    }
}
