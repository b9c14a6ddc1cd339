import Foundation

/// An `installtop …` command a document shows as code, reduced to what must exist in the
/// binary: the subcommand and, when it is a word, the one after it (`installtop apt undo RUN`
/// → `apt`, `undo`).
struct ShownCommand: Hashable, CustomStringConvertible {
    let command: String
    /// The word after the command, when it is one (lower-case letters and `-`); whether it is
    /// a subcommand depends on whether `command` has any.
    let next: String?
    /// Where it is shown, as `README.md:32`.
    let place: String

    /// The commands shown in `document`'s code: `installtop` as a word of its own (not a path
    /// such as `.build/release/installtop`, nor `installtop-relay`), then a subcommand.
    static func all(in document: MarkdownDocument) -> [ShownCommand] {
        var commands: [ShownCommand] = []
        for (line, text) in document.code {
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let command = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else { continue }
                let next = Range(match.range(at: 2), in: text).map { String(text[$0]) }
                commands.append(ShownCommand(command: command, next: next, place: "\(document.name):\(line)"))
            }
        }
        return commands
    }

    var description: String { "`installtop \(command)\(next.map { " " + $0 } ?? "")` (\(place))" }

    private static let pattern = try! NSRegularExpression(
        pattern: #"(?<![\w./$"'-])installtop[ \t]+([a-z][a-z-]*)(?:[ \t]+([a-z][a-z-]*)(?=[\s|`)]|$))?"#)
}
