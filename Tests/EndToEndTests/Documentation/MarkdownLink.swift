import Foundation

/// A link (or image) in one of the repository's Markdown files, where it is written.
struct MarkdownLink: CustomStringConvertible {
    /// The file it is in, relative to the repository's root.
    let file: String
    /// Its line, from 1.
    let line: Int
    /// What it points at, as written: `UNDO.md#measured-cost`, `#build-from-source`, `https://…`.
    let target: String

    /// Whether it leaves the repository (`https:`, `mailto:` …): those are not checked.
    var isExternal: Bool {
        guard let colon = target.firstIndex(of: ":") else { return false }
        return target[..<colon].allSatisfy { $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// The file part, `nil` for a link to an anchor of its own file.
    var path: String? {
        let path = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return path.isEmpty ? nil : String(path)
    }

    /// The part after `#`, `nil` when there is none.
    var anchor: String? {
        guard let hash = target.firstIndex(of: "#") else { return nil }
        return String(target[target.index(after: hash)...])
    }

    var description: String { "\(file):\(line): \(target)" }
}
