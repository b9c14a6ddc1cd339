import Foundation

/// One Markdown file of the repository, read the way GitHub renders it for what the
/// documentation tests check: its links, its headings' anchors, and the text it shows as code.
struct MarkdownDocument {
    /// The path relative to the repository's root, as messages name it (`Documentation/UNDO.md`).
    let name: String
    /// The file's lines, each with whether it lies inside a fenced code block.
    private let lines: [(text: String, inFence: Bool)]

    /// Reads `name` under `root`.
    /// - Throws: when the file cannot be read as UTF-8.
    init(_ name: String, root: URL) throws {
        self.name = name
        let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        var inFence = false
        var lines: [(String, Bool)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence.toggle()
                lines.append((line, true))
            } else {
                lines.append((line, inFence))
            }
        }
        self.lines = lines
    }

    /// Every link and image outside code (fenced blocks and inline code spans), in order.
    var links: [MarkdownLink] {
        var links: [MarkdownLink] = []
        for (number, line) in lines.enumerated() where !line.inFence {
            let prose = Self.withoutCodeSpans(line.text)
            for match in Self.linkPattern.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)) {
                guard let range = Range(match.range(at: 1), in: prose) else { continue }
                links.append(MarkdownLink(file: name, line: number + 1, target: String(prose[range])))
            }
        }
        return links
    }

    /// The anchors GitHub gives the headings (`## The plan` → `the-plan`; a repeated one gets
    /// `-1`, `-2`, …).
    var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in lines where !line.inFence {
            guard let match = Self.headingPattern.firstMatch(in: line.text, range: NSRange(line.text.startIndex..., in: line.text)),
                  let range = Range(match.range(at: 1), in: line.text) else { continue }
            let slug = Self.slug(String(line.text[range]))
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// The text shown as code: each line of a fenced block, and each inline code span, with its
    /// line number.
    var code: [(line: Int, text: String)] {
        var code: [(Int, String)] = []
        for (number, line) in lines.enumerated() {
            if line.inFence {
                code.append((number + 1, line.text))
                continue
            }
            let text = line.text
            for match in Self.codeSpanPattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                code.append((number + 1, String(text[range])))
            }
        }
        return code
    }

    /// GitHub's anchor for a heading's text: links become their text, code and emphasis marks
    /// go, then lower case, every character but letters, digits, `_`, `-` and spaces dropped,
    /// spaces made `-`.
    static func slug(_ heading: String) -> String {
        let text = headingLinkPattern.stringByReplacingMatches(
            in: heading, range: NSRange(heading.startIndex..., in: heading), withTemplate: "$1")
        let kept = text.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "*", with: "")
            .trimmingCharacters(in: .whitespaces).lowercased()
            .filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == " " }
        return kept.replacingOccurrences(of: " ", with: "-")
    }

    private static func withoutCodeSpans(_ line: String) -> String {
        codeSpanPattern.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "")
    }

    // `[text](target)` or `![alt](target "title")`: group 1 is the target.
    private static let linkPattern = try! NSRegularExpression(pattern: #"!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#)
    // A link in a heading: group 1 is its text.
    private static let headingLinkPattern = try! NSRegularExpression(pattern: #"\[([^\]]*)\]\([^)]*\)"#)
    private static let headingPattern = try! NSRegularExpression(pattern: #"^#{1,6}\s+(.*?)\s*#*\s*$"#)
    private static let codeSpanPattern = try! NSRegularExpression(pattern: #"`([^`]+)`"#)
}
