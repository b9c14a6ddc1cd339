import InstallEngine

/// What apt's `DPkg::Pre-Install-Pkgs` hook (version 3) says before dpkg starts, as the relay
/// forwards it: the command line, dpkg's status file and one line per package,
/// `NAME OLDVER OLDARCH OLDMA CMP NEWVER NEWARCH NEWMA ACTION` (`-` for no version; ACTION a
/// `.deb` path, `**CONFIGURE**` or `**REMOVE**`).
public struct ObservedPlan: Sendable, Hashable {
    /// apt's `CommandLine::AsString` (`apt-get install -y nginx`); empty when absent.
    public var commandLine: String
    /// dpkg's database folder: `--admindir` in `DPkg::Options`, else `--root`'s `var/lib/dpkg`
    /// when `Dir::State::status` is the default (apt passes `--admindir` itself only for another
    /// status file; python-apt's `rootdir="/"`, as unattended-upgrade opens its cache, resets it
    /// to the default), else `Dir::State::status` without `/status`; `nil` when none is given.
    public var administrativeDirectory: String?
    /// One change per package, in apt's order, each package once.
    public var changes: [PackageChange]

    public init(lines: [String]) {
        var commandLine = ""
        var administrativeDirectory: String?
        var dpkgRoot: String?
        var dpkgAdministrativeDirectory: String?
        var changes: [PackageChange] = []
        var seen: Set<String> = []
        for line in lines {
            if let value = Self.value(line, "CommandLine::AsString=") {
                commandLine = value.replacingPercentSpaces()
                continue
            }
            if let value = Self.value(line, "DPkg::Options::=--root=") {
                dpkgRoot = value
                continue
            }
            if let value = Self.value(line, "DPkg::Options::=--admindir=") {
                dpkgAdministrativeDirectory = value
                continue
            }
            if var value = Self.value(line, "Dir::State::status=") {
                // python-apt's rootdir "/" makes it `//var/lib/dpkg/status`.
                if value.hasPrefix("/") { value = "/" + value.split(separator: "/").joined(separator: "/") }
                administrativeDirectory = value.hasSuffix("/status") ? String(value.dropLast("/status".count)) : value
                continue
            }
            let fields = line.split(separator: " ")
            guard fields.count == 9, fields[4] == "<" || fields[4] == ">" || fields[4] == "=" || fields[4] == "-" else { continue }
            let name = String(fields[0].split(separator: ":").first ?? fields[0])
            guard !seen.contains(name) else { continue }
            seen.insert(name)
            let old = fields[1] == "-" ? nil : String(fields[1])
            let new = fields[5] == "-" ? nil : String(fields[5])
            let architecture = fields[6] == "-" ? (fields[2] == "-" ? nil : String(fields[2])) : String(fields[6])
            let action: PackageChange.Action
            if fields[8] == "**REMOVE**" {
                action = .remove
            } else if old == nil {
                action = .install
            } else {
                action = old == new ? .reinstall : .upgrade
            }
            changes.append(PackageChange(package: name, action: action, oldVersion: old, newVersion: action == .remove ? nil : new,
                                         architecture: architecture))
        }
        self.commandLine = commandLine
        if let dpkgAdministrativeDirectory {
            self.administrativeDirectory = dpkgAdministrativeDirectory
        } else if let dpkgRoot, administrativeDirectory == nil || administrativeDirectory == "/var/lib/dpkg" {
            self.administrativeDirectory = (dpkgRoot.hasSuffix("/") ? String(dpkgRoot.dropLast()) : dpkgRoot) + "/var/lib/dpkg"
        } else {
            self.administrativeDirectory = administrativeDirectory
        }
        self.changes = changes
    }

    private static func value(_ line: String, _ prefix: String) -> String? {
        line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
    }
}

private extension String {
    /// apt writes spaces in configuration values as `%20`.
    func replacingPercentSpaces() -> String {
        split(separator: "%20", omittingEmptySubsequences: false).joined(separator: " ")
    }
}
