#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TerminalUI
import YAMLNodes
import TextBasics

/// Reads theme files (the format of Documentation/MONITOR.md, "Themes"). Every problem becomes a
/// `ThemeError` naming the file, line, column and key; nothing here traps on bad input.
public enum ThemeLoader {
    /// Parses the text of a theme file.
    /// - Parameters:
    ///   - file: the path or label used in error messages.
    ///   - id: what `--theme` matches, normally the file's base name.
    /// - Throws: `ThemeError` for invalid YAML, a document that is not a mapping, unknown keys
    ///   or roles, and values that are not colours or booleans.
    public static func parse(_ text: String, file: String, id: String, source: ThemeSource) throws(ThemeError) -> Theme {
        let root: Node?
        do {
            // Themes read only text, so no tag is resolved: a key is the same key quoted or not.
            root = try YAMLNodes.compose(yaml: text, .basic)
        } catch {
            throw syntaxError(error, file: file)
        }
        guard let root, case .mapping(let top) = root else {
            throw ThemeError(file: file, message: "expected a mapping with `name` and `styles`")
        }
        var name = id
        var styles: [ThemeRole: Style] = [:]
        var sawStyles = false
        for (keyNode, value) in top {
            let key = keyNode.string ?? ""
            switch key {
            case "name":
                guard let text = value.scalar?.string, !text.isEmpty else {
                    throw error(file, value, key: "name", "expected the theme's name as text")
                }
                name = text
            case "styles":
                sawStyles = true
                styles = try readStyles(value, file: file)
            default:
                throw error(file, keyNode, key: key, "unknown key; expected `name` or `styles`")
            }
        }
        guard sawStyles else { throw ThemeError(file: file, key: "styles", message: "missing; a theme needs its styles") }
        return Theme(id: id, name: name, source: source, styles: styles)
    }

    /// Reads the file at `path`; its base name becomes the theme's id.
    /// - Throws: `ThemeError` when it cannot be read or parsed.
    public static func load(path: String) throws(ThemeError) -> Theme {
        let url = URL(fileURLWithPath: path)
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ThemeError(file: path, message: "cannot read the theme file: \(ErrorText.reason(error))")
        }
        return try parse(text, file: path, id: url.deletingPathExtension().lastPathComponent, source: .file(path))
    }

    // MARK: - Styles

    private static func readStyles(_ node: Node, file: String) throws(ThemeError) -> [ThemeRole: Style] {
        guard case .mapping(let mapping) = node else {
            throw error(file, node, key: "styles", "expected a mapping from roles to styles")
        }
        var styles: [ThemeRole: Style] = [:]
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            guard let role = ThemeRole(key: key) else {
                let known = ThemeRole.allCases.map(\.key).joined(separator: ", ")
                throw error(file, keyNode, key: "styles.\(key)", "unknown role; expected one of \(known)")
            }
            styles[role] = try readStyle(value, file: file, key: "styles.\(key)")
        }
        return styles
    }

    /// A colour name alone, or a mapping of colours and attributes.
    private static func readStyle(_ node: Node, file: String, key: String) throws(ThemeError) -> Style {
        switch node {
        case .scalar:
            return Style(foreground: try readColor(node, file: file, key: key))
        case .mapping(let mapping):
            var style = Style.plain
            for (keyNode, value) in mapping {
                let field = keyNode.string ?? ""
                let path = "\(key).\(field)"
                switch field {
                case "fg": style.foreground = try readColor(value, file: file, key: path)
                case "bg": style.background = try readColor(value, file: file, key: path)
                case "bold": style.bold = try readBool(value, file: file, key: path)
                case "dim": style.dim = try readBool(value, file: file, key: path)
                case "reverse": style.reverse = try readBool(value, file: file, key: path)
                case "underline": style.underline = try readBool(value, file: file, key: path)
                default:
                    throw error(file, keyNode, key: path, "unknown key; expected fg, bg, bold, dim, reverse or underline")
                }
            }
            return style
        default:
            throw error(file, node, key: key, "expected a colour or a mapping {fg, bg, bold, dim, reverse, underline}")
        }
    }

    private static func readColor(_ node: Node, file: String, key: String) throws(ThemeError) -> Color {
        guard let text = node.scalar?.string, let color = Color(parsing: text) else {
            let found = describe(node)
            throw error(file, node, key: key,
                "expected a colour (default, a name such as red or bright-black, 0-255, or #rrggbb); got \(found)")
        }
        return color
    }

    private static func readBool(_ node: Node, file: String, key: String) throws(ThemeError) -> Bool {
        switch node.scalar?.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            let found = describe(node)
            throw error(file, node, key: key, "expected true or false; got \(found)")
        }
    }

    // MARK: - Errors

    /// What a wrong value is, for messages: the scalar's text, or its shape.
    private static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): return "`\(scalar.string)`"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }

    private static func error(_ file: String, _ node: Node, key: String, _ message: String) -> ThemeError {
        ThemeError(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, key: key, message: message)
    }

    private static func syntaxError(_ error: YamlError, file: String) -> ThemeError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return ThemeError(file: file, line: mark.line, column: mark.column, message: "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            return ThemeError(file: file, line: context.mark.line, column: context.mark.column,
                message: "key \(keys) appears more than once")
        default:
            return ThemeError(file: file, message: "invalid YAML: \(error)")
        }
    }
}
