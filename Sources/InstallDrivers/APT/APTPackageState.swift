import InstallEngine

/// One package as dpkg's database has it after a transaction (`dpkg-query -W`): its status
/// abbreviation (`ii`, `rc`, `iU`, `iHR` …) and version. Rule 23: every package result is
/// checked against it.
public struct APTPackageState: Sendable, Hashable, CustomStringConvertible {
    /// `dpkg-query`'s `${db:Status-Abbrev}` without its trailing blank: want, status, error.
    public var status: String
    public var version: String

    /// A package dpkg does not know.
    public static let notInstalled = APTPackageState(status: "un", version: "")

    /// Whether the package is as `change` wanted it: installed at the new version, or gone
    /// (a removal may leave its configuration files, `rc`; a purge may not).
    public func satisfies(_ change: PackageChange) -> Bool {
        let current = status.dropFirst().first
        let installed = current == "i" && status.count == 2
        switch change.action {
        case .install, .upgrade, .reinstall:
            return installed && (change.newVersion == nil || change.newVersion == version)
        case .remove:
            return current == "n" || current == "c" || current == nil
        case .purge:
            return current == "n" || current == nil
        }
    }

    /// Whether the package is as it was before `change` (not installed for an install; installed
    /// at its old version otherwise): nothing dpkg did to it shows. A reinstall's package is
    /// then also as the change wants it, so its state cannot tell whether it ran.
    public func isUntouched(by change: PackageChange) -> Bool {
        let current = status.dropFirst().first
        switch change.action {
        case .install:
            return current == "n" || current == "c" || current == nil
        case .upgrade, .reinstall, .remove, .purge:
            return current == "i" && status.count == 2 && version == change.oldVersion
        }
    }

    /// Whether dpkg has the package's files, fully or half-way: any state but not installed
    /// and configuration files only.
    public var isPresent: Bool {
        !["n", "c"].contains(status.dropFirst().first ?? "n")
    }

    /// Whether dpkg left the package half-way (half-installed, unpacked, half-configured, or
    /// flagged reinstall-required): what a repair after a forced stop must fix.
    public var needsReinstall: Bool {
        let current = status.dropFirst().first
        return status.count > 2 || current == "H" || current == "U" || current == "F"
    }

    /// Whether dpkg left the package half-way, a repair's case or triggers still to run: what
    /// apt counts as "not fully installed or removed".
    public var isHalfWay: Bool {
        needsReinstall || ["W", "t"].contains(status.dropFirst().first)
    }

    /// Whether `dpkg --configure -a` finishes the package: unpacked, half-configured or waiting
    /// for triggers, and not flagged reinstall-required. A half-installed package (`iH`), or one
    /// flagged `R`, needs its archive again: `--configure -a` exits 0 and leaves it as it was.
    public var finishesWithConfigure: Bool {
        isHalfWay && status.count == 2 && status.dropFirst().first != "H"
    }

    /// `installed at 1.0`, `not installed`, `half-installed at 1.0 (iHR)`.
    public var description: String {
        let word: String
        switch status.dropFirst().first {
        case "i": word = "installed"
        case "n", nil: return "not installed"
        case "c": return "removed, its configuration files kept"
        case "U": word = "unpacked but not configured"
        case "F": word = "half-configured"
        case "H": word = "half-installed"
        case "W", "t": word = "waiting for triggers"
        default: word = "in state \(status)"
        }
        let version = version.isEmpty ? "" : " at \(version)"
        return status.count > 2 || (status.dropFirst().first != "i") ? "\(word)\(version) (\(status))" : "\(word)\(version)"
    }

    /// Every package of the database in `administrativeDirectory`, by name; empty when
    /// dpkg-query cannot be run.
    /// Under a cancelled `cancellation` it is empty.
    public static func query(administrativeDirectory: String, cancellation: CommandCancellation? = nil) -> [String: APTPackageState] {
        parse(SystemCommand.run(queryCommand(administrativeDirectory: administrativeDirectory), cancellation: cancellation).stdout)
    }

    /// Every package of the database in `administrativeDirectory`, by name; `nil` with
    /// dpkg-query's words when it could not be run or did not exit 0 (an empty answer then
    /// says nothing of the packages, which `query` would take for not installed).
    public static func checkedQuery(administrativeDirectory: String) -> Result<[String: APTPackageState], QueryFailure> {
        let run = SystemCommand.run(queryCommand(administrativeDirectory: administrativeDirectory))
        guard run.status == 0 else {
            let said = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
            return .failure(QueryFailure(description: run.failedToStart ? "dpkg-query could not be started: \(said)"
                : "dpkg-query exited \(run.status)\(said.isEmpty ? "" : ": \(said)")"))
        }
        return .success(parse(run.stdout))
    }

    /// Why `checkedQuery` has no answer.
    public struct QueryFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The `dpkg-query` command whose output `parse` reads.
    public static func queryCommand(administrativeDirectory: String) -> [String] {
        ["/usr/bin/dpkg-query", "--admindir=\(administrativeDirectory)", "-W", "-f=${Package} ${db:Status-Abbrev} ${Version}\n"]
    }

    /// The packages in the output of `queryCommand`, by name without architecture; lines it
    /// cannot read are skipped.
    public static func parse(_ output: String) -> [String: APTPackageState] {
        var states: [String: APTPackageState] = [:]
        // On bytes: this reads the whole database after every transaction (tens of thousands
        // of lines on a server), and the fields are ASCII.
        for line in output.utf8.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 3, omittingEmptySubsequences: true)
            guard fields.count >= 2 else { continue }
            let name = fields[0].split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false)[0]
            states[String(decoding: name, as: UTF8.self)] = APTPackageState(
                status: String(decoding: fields[1], as: UTF8.self), version: fields.count > 2 ? String(decoding: fields[2], as: UTF8.self) : "")
        }
        return states
    }
}
