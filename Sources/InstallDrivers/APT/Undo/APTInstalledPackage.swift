#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One installed package as dpkg's database has it, read before dpkg touches it: its status
/// stanza (what a rebuilt package's control is made of) and the files of `info/`.
struct APTInstalledPackage: Sendable {
    var name: String
    var version: String
    var architecture: String
    /// `${db:Status-Abbrev}` without its blank: `ii` when fully installed.
    var status: String
    /// The status stanza's fields in dpkg's order, each with its continuation lines.
    var fields: [(name: String, text: String)]
    /// The conffiles dpkg recorded for it (not the obsolete ones).
    var conffiles: [String] { conffileHashes.map(\.path) }
    /// The same with the md5 dpkg recorded as each one's original (`Conffiles:`), in its order.
    var conffileHashes: [(path: String, hash: String)]
    /// dpkg's database folder.
    var administrativeDirectory: String

    /// Reads every one of `packages` with one `dpkg-query -s` (dpkg parses its database once,
    /// not once a package): the stanzas dpkg printed, in its order; a package it does not know
    /// is missing from them (dpkg-query then exits 1 and says so on stderr).
    static func readAll(_ packages: [String], administrativeDirectory: String, dpkgQuery: String) -> [APTInstalledPackage] {
        guard !packages.isEmpty else { return [] }
        let query = SystemCommand.run([dpkgQuery, "--admindir=\(administrativeDirectory)", "-s", "--"] + packages,
                                      environment: ["LC_ALL": "C.UTF-8"])
        return query.stdout.components(separatedBy: "\n\n").compactMap { parse($0, administrativeDirectory: administrativeDirectory) }
    }

    /// The first stanza of `text`: `dpkg-query -s`'s output, or a .deb's `control`.
    static func parse(_ text: String, administrativeDirectory: String) -> APTInstalledPackage? {
        var fields: [(name: String, text: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if fields.isEmpty { continue }
                break
            }
            if line.first == " " || line.first == "\t" {
                guard !fields.isEmpty else { continue }
                fields[fields.count - 1].text += "\n" + line
            } else if let colon = line.firstIndex(of: ":") {
                fields.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
            }
        }
        func value(_ name: String) -> String? { fields.first { $0.name == name }?.text }
        guard let name = value("Package"), let version = value("Version") else { return nil }
        let status = value("Status") ?? ""
        let conffiles = (value("Conffiles") ?? "").split(separator: "\n").compactMap { line -> (path: String, hash: String)? in
            let words = line.split(separator: " ")
            guard words.count >= 2, !words.dropFirst(2).contains("obsolete") else { return nil }
            return (String(words[0]), String(words[1]))
        }
        return APTInstalledPackage(name: name, version: version, architecture: value("Architecture") ?? "all",
                                   status: abbreviation(of: status), fields: fields, conffileHashes: conffiles,
                                   administrativeDirectory: administrativeDirectory)
    }

    /// `install ok installed` → `ii`: the want and status letters `${db:Status-Abbrev}` gives.
    static func abbreviation(of status: String) -> String {
        let words = status.split(separator: " ")
        guard words.count == 3 else { return "??" }
        let wants = ["unknown": "u", "install": "i", "hold": "h", "deinstall": "r", "purge": "p"]
        let states = ["not-installed": "n", "config-files": "c", "half-installed": "H", "unpacked": "U",
                      "half-configured": "F", "triggers-awaited": "W", "triggers-pending": "t", "installed": "i"]
        return (wants[String(words[0])] ?? "?") + (states[String(words[2])] ?? "?") + (words[1] == "ok" ? "" : "R")
    }

    /// Whether dpkg has it fully installed (`ii`): only then are its files and scripts whole.
    var isFullyInstalled: Bool { status == "ii" }

    /// `info/NAME.SUFFIX` (or `info/NAME:ARCH.SUFFIX` for a Multi-Arch: same package), when it exists.
    func infoFile(_ suffix: String) -> String? {
        let info = administrativeDirectory + "/info/"
        for stem in [name, "\(name):\(architecture)"] {
            let path = info + stem + "." + suffix
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// The .deb's file name apt and dpkg-repack give it: `NAME_VERSION_ARCH.deb`, an epoch's
    /// colon written `%3a` as apt's archive cache does.
    var debFileName: String {
        "\(name)_\(version.replacing(":", with: "%3a"))_\(architecture).deb"
    }
}
