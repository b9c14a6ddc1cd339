#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The TCP ports listening in this network namespace, from `/proc/net/tcp` and `/proc/net/tcp6`:
/// `tcp/22`, `tcp6/22`, one per port and family however many addresses listen on it.
enum ListeningPorts {
    /// The kernel's state number for LISTEN in those tables.
    static let listenState = "0A"

    /// The ports listening now; `nil` when neither table can be read.
    static func now(procNet: String = "/proc/net") -> [String]? {
        let tables = ["tcp", "tcp6"].compactMap { family in
            (try? String(contentsOfFile: "\(procNet)/\(family)", encoding: .utf8)).map { (family, $0) }
        }
        guard !tables.isEmpty else { return nil }
        return Array(Set(tables.flatMap { parse($0.1, family: $0.0) })).sorted()
    }

    /// The listening ports of one table's text (its header line skipped), as `FAMILY/PORT`.
    static func parse(_ table: String, family: String) -> [String] {
        table.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 3, fields[3] == listenState,
                  let portText = fields[1].split(separator: ":").last, let port = Int(portText, radix: 16) else { return nil }
            return "\(family)/\(port)"
        }
    }
}
