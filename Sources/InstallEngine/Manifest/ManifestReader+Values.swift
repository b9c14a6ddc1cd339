#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import YAMLNodes
import TextBasics

/// The typed readings only manifests have (the shared ones are `YAMLDocumentReader`'s). Each
/// reports what it expected and what it found, at the node's position, and returns `nil` when
/// the node is not usable.
extension ManifestReader {
    /// What a duration looks like, for every message about one.
    static let durationExpectation = "expected a duration such as 500ms, 10s, 5m or 2h"

    /// installtop sets these for every child (Documentation/MANIFESTS-AND-DRIVERS.md); a manifest cannot change them.
    static let reservedEnvironment: Set<String> = [
        "INSTALLTOP_PROGRESS_FD", "INSTALLTOP_UPDATE_ID", "INSTALLTOP_OPERATION", "INSTALLTOP_JOB",
    ]

    // MARK: - Scalars

    /// YAML integers (`3`, `4_200_000`, `0x10`) of at least `minimum`.
    mutating func integer(_ node: Node, atLeast minimum: Int) -> Int? {
        if node.tagName == .int, let value = node.int, value >= minimum { return value }
        report("expected an integer of at least \(minimum); got \(describe(node))", at: node)
        return nil
    }

    /// See `DurationParser`: `30` is refused, the unit is never guessed.
    mutating func duration(_ node: Node) -> Duration? {
        if let text = node.scalar?.string, let duration = DurationParser.parse(text) { return duration }
        report("\(Self.durationExpectation); got \(describe(node))", at: node)
        return nil
    }

    /// A duration longer than zero, or `none` (inner `nil`) for no limit. Outer `nil`: invalid.
    mutating func timeout(_ node: Node) -> Duration?? {
        if node.tagName == .str, node.scalar?.string == "none" { return .some(nil) }
        guard let duration = duration(node) else { return nil }
        guard duration > .zero else {
            report("expected a timeout longer than 0, or none for no limit; got \(describe(node))", at: node)
            return nil
        }
        return .some(duration)
    }

    // MARK: - Collections

    /// Names must be non-empty without `=`; values are any scalar's text. What is valid is
    /// returned even when some entries were reported.
    mutating func environment(_ node: Node) -> [String: String]? {
        guard case .mapping(let mapping) = node else {
            report("expected a mapping of environment variables; got \(describe(node))", at: node)
            return nil
        }
        var environment: [String: String] = [:]
        for (key, value) in pairs(of: mapping) {
            guard let name = string(key) else { continue }
            guard !name.isEmpty, !name.contains("="), !name.contains("\0") else {
                report("invalid environment variable name `\(name)`: it must be non-empty and contain no `=`", at: key)
                continue
            }
            guard !Self.reservedEnvironment.contains(name) else {
                report("`\(name)` is set by installtop for every update and cannot be changed", at: key)
                continue
            }
            if let text = string(value) { environment[name] = text }
        }
        return environment
    }

    /// An existing directory; `~` is the home folder and relative paths start at the
    /// manifest's folder. Returned absolute and standardized (no `.` or `..`).
    mutating func directory(_ node: Node) -> String? {
        guard let text = nonEmptyString(node) else { return nil }
        let expanded = PathText.expandingTilde(text)
        let base = URL(fileURLWithPath: folder, isDirectory: true)
        let path = URL(fileURLWithPath: expanded, relativeTo: base).standardizedFileURL.path
        guard let kind = FileKind.of(path) else {
            report("workdir `\(path)` does not exist", at: node)
            return nil
        }
        guard kind == .folder else {
            report("workdir `\(path)` is not a directory", at: node)
            return nil
        }
        return path
    }
}
