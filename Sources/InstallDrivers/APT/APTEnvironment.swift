import InstallEngine

/// Where an apt job acts, as apt itself resolves it: which configuration (`APT_CONFIG`), which
/// dpkg database and which root. Read once from `apt-config` before the plan, so the driver,
/// dpkg's repair, the final `dpkg-query` check and the reboot list all look at the same root.
public struct APTEnvironment: Sendable, Hashable {
    /// The file `APT_CONFIG` names for every apt and dpkg command; `nil` for the system's.
    public var aptConfig: String?
    /// dpkg's database (`Dir::State::status`'s folder), e.g. `/var/lib/dpkg`.
    public var administrativeDirectory: String
    /// The root dpkg installs into (its `--root` in `DPkg::Options`), `/` for the system.
    public var root: String
    /// `DPkg::Options`, which dpkg's own commands (the repair, the audit) need as apt gives them.
    public var dpkgOptions: [String]
    /// `Dir::Bin::dpkg`.
    public var dpkg: String

    /// The variables every apt and dpkg command of the job gets: `APT_CONFIG` when set, and no
    /// questions from debconf or apt-listchanges.
    public var commandEnvironment: [String: String] {
        var environment = APTCommandLine.environment
        if let aptConfig { environment["APT_CONFIG"] = aptConfig }
        return environment
    }

    /// `ROOT/run/reboot-required.pkgs`: Debian's list of the packages that asked for a reboot,
    /// in the job's root (never the host's for a job in another root).
    public var rebootPackagesPath: String { path(inRoot: "/run/reboot-required.pkgs") }

    public init(aptConfig: String?, administrativeDirectory: String, root: String, dpkgOptions: [String], dpkg: String = "/usr/bin/dpkg") {
        self.aptConfig = aptConfig
        self.administrativeDirectory = administrativeDirectory
        self.root = root
        self.dpkgOptions = dpkgOptions
        self.dpkg = dpkg
    }

    /// Asks `apt-config dump` for the configuration `aptConfig` (or the system's) gives.
    /// - Throws: `APTPlanError` when apt-config is missing or refuses the configuration.
    public static func resolve(aptConfig: String?, aptConfigCommand: String = "/usr/bin/apt-config") throws(APTPlanError) -> APTEnvironment {
        var environment: [String: String] = [:]
        if let aptConfig { environment["APT_CONFIG"] = aptConfig }
        let dump = SystemCommand.run([aptConfigCommand, "dump"], environment: environment)
        if dump.failedToStart { throw APTPlanError(.aptMissing, "apt is not installed here (\(dump.stderr))") }
        guard dump.status == 0 else {
            throw APTPlanError(.aptRefused, APTPlanError.aptMessage(dump.stderr, otherwise: "apt-config exited with status \(dump.status)"))
        }
        return parse(dump: dump.stdout, aptConfig: aptConfig)
    }

    /// Reads `apt-config dump`'s `Key "value";` lines.
    static func parse(dump: String, aptConfig: String?) -> APTEnvironment {
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
        let admin = String(status[..<(status.lastIndex(of: "/") ?? status.endIndex)])
        return APTEnvironment(aptConfig: aptConfig, administrativeDirectory: admin.isEmpty ? "/" : admin, root: root,
                              dpkgOptions: dpkgOptions, dpkg: values["Dir::Bin::dpkg"] ?? "/usr/bin/dpkg")
    }

    /// `path` inside the job's root.
    public func path(inRoot path: String) -> String {
        root == "/" ? path : (root.hasSuffix("/") ? String(root.dropLast()) : root) + path
    }
}
