#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The files `installtop hooks install` writes and `remove` deletes, and their text: an
/// `apt.conf.d` file (dpkg's status logger through `DPkg::Options` when there is no dpkg
/// file, the plan through `DPkg::Pre-Install-Pkgs` version 3, `Pre-` and `Post-Invoke`), and on
/// the real root a `dpkg.cfg.d` file so `dpkg -i` run by hand reports too.
///
/// Every hook line is written so that a missing or broken relay still reads its input to the
/// end and exits 0 (`… || cat >/dev/null`): a hook left behind must never break apt or dpkg.
struct HookFiles {
    /// The folder apt reads its configuration parts from (`Dir::Etc::parts`), with a slash.
    let aptParts: String
    /// `/etc/dpkg/dpkg.cfg.d/` on the real root; `nil` for a private root, whose dpkg reads
    /// the host's configuration folder, never its own.
    let dpkgParts: String?

    static let systemDpkgParts = "/etc/dpkg/dpkg.cfg.d/"
    static let fileName = "99installtop-observe"
    /// The first line of every file written: `remove` deletes only files that carry it.
    static let marker = "installtop hooks"

    var aptFile: String { Self.join(aptParts, Self.fileName) }
    var dpkgFile: String? { dpkgParts.map { Self.join($0, Self.fileName) } }
    /// Every file this root may hold.
    var all: [String] { [aptFile] + (dpkgFile.map { [$0] } ?? []) }

    /// The `apt.conf.d` text for a relay at `relay` reporting to `socket`; with `keeper` (an
    /// installtop executable and the history database, `--keep-for-undo`), also the hooks that
    /// keep every apt run's replaced versions for undo (rule 37).
    func aptText(relay: String, socket: String, keeper: (installtop: String, historyDb: String)? = nil) -> String {
        let socketWord = Self.shellQuoted(socket)
        var lines = [
            "// \(Self.marker): written by `installtop hooks install`, deleted by `installtop hooks remove`.",
            "// Each hook reads its input to the end and succeeds even when the relay is missing or broken.",
        ]
        if dpkgParts == nil {
            lines.append("DPkg::Options:: \"--status-logger=\(Self.statusLogger(relay: relay, socket: socketWord))\";")
        }
        lines += [
            "DPkg::Pre-Install-Pkgs:: \"\(relay) plan --socket \(socketWord) 2>/dev/null || cat >/dev/null\";",
            // apt keys the hook protocol's version by the command's first word.
            "DPkg::Tools::Options::\(relay)::Version \"3\";",
            "DPkg::Pre-Invoke:: \"\(relay) begin --socket \(socketWord) </dev/null >/dev/null 2>&1 || true\";",
            "DPkg::Post-Invoke:: \"\(relay) end --socket \(socketWord) </dev/null >/dev/null 2>&1 || true\";",
        ]
        if let keeper {
            let database = Self.shellQuoted(keeper.historyDb)
            lines += [
                // The one hook that may delay apt (rule 37): dpkg waits while the old versions are
                // kept. Its failures are said on stderr; it never fails apt's run. (Its first word
                // must stay the program: apt keys the hook's protocol version by it.)
                "DPkg::Pre-Install-Pkgs:: \"\(keeper.installtop) hooks keep begin --history-db \(database) || cat >/dev/null\";",
                "DPkg::Tools::Options::\(keeper.installtop)::Version \"3\";",
                // The binary gone after the transaction that removed the package: nothing to say.
                "DPkg::Post-Invoke:: \"[ ! -x \(keeper.installtop) ] || \(keeper.installtop) hooks keep end --history-db \(database) </dev/null >/dev/null || true\";",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `dpkg.cfg.d` text: the status logger for every dpkg run, apt's included.
    func dpkgText(relay: String, socket: String) -> String {
        "# \(Self.marker): written by `installtop hooks install`, deleted by `installtop hooks remove`.\n"
            + "status-logger=\(Self.statusLogger(relay: relay, socket: Self.shellQuoted(socket)))\n"
    }

    /// dpkg runs the logger with `sh -c`; when the relay fails or is missing, `cat` drains the
    /// rest, since dpkg dies of SIGPIPE when its logger stops reading.
    private static func statusLogger(relay: String, socket: String) -> String {
        "\(relay) status --socket \(socket) 2>/dev/null || exec cat >/dev/null"
    }

    /// Whether `path` can stand unquoted in a hook line and as an apt configuration key: apt
    /// takes the command's first word, quotes and all, as the key of its protocol version.
    static func isPlainPath(_ path: String) -> Bool {
        path.hasPrefix("/") && path.unicodeScalars.allSatisfy {
            isAlphanumeric($0) || "/._+-@,=".unicodeScalars.contains($0)
        }
    }

    /// A letter, a mark or a number of any script (what Foundation's `alphanumerics` holds).
    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// `path` in single quotes for sh; `nil` when it holds a quote of either kind (an apt
    /// string cannot hold a double quote, sh's single quotes cannot hold a single one).
    static func shellQuotedIfPossible(_ path: String) -> String? {
        path.contains("'") || path.contains("\"") || path.contains("\n") ? nil : "'\(path)'"
    }

    private static func shellQuoted(_ path: String) -> String { shellQuotedIfPossible(path) ?? path }

    /// The relay and the socket an installed `apt.conf.d` file names, read from its
    /// `Pre-Invoke` line; `nil` when it has none.
    static func relayAndSocket(inAptText text: String) -> (relay: String, socket: String)? {
        let prefix = "DPkg::Pre-Invoke:: \""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        let words = line.dropFirst(prefix.count).split(separator: " ")
        guard let relay = words.first, let flag = words.firstIndex(of: "--socket"), flag + 1 < words.count else { return nil }
        var socket = words[flag + 1]
        if socket.hasPrefix("'"), socket.hasSuffix("'"), socket.count >= 2 { socket = socket.dropFirst().dropLast() }
        return (String(relay), String(socket))
    }

    /// The history the keeping hooks of an installed `apt.conf.d` file record into (its
    /// `hooks keep begin` line); `nil` when it has none (no `--keep-for-undo`).
    static func keepingHistory(inAptText text: String) -> String? {
        guard let line = text.split(separator: "\n").first(where: { $0.contains(" hooks keep begin --history-db ") }),
              let start = line.firstRange(of: " --history-db ")?.upperBound,
              let end = line[start...].firstRange(of: " || cat")?.lowerBound else { return nil }
        var database = line[start..<end]
        if database.hasPrefix("'"), database.hasSuffix("'"), database.count >= 2 { database = database.dropFirst().dropLast() }
        return String(database)
    }

    /// The value `apt-config shell NAME KEY` printed (`NAME='value'`).
    static func shellValue(_ output: String, name: String) -> String? {
        for line in output.split(separator: "\n") where line.hasPrefix(name + "=") {
            var value = line.dropFirst(name.count + 1)
            if value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 { value = value.dropFirst().dropLast() }
            return String(value)
        }
        return nil
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
