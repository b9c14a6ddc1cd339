#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import YAMLNodes
import TextBasics

/// A job's kind section (`apt: {…}`) as its `JobKind` reads it: typed values of its keys, each
/// mistake reported at its line and column like every other manifest error. Unknown keys were
/// reported before the kind sees the section. Every value getter returns `nil` both when the
/// key is absent and when its value was reported; `hasErrors` tells them apart.
public struct ManifestKindSection {
    var reader: ManifestReader
    let fields: YAMLFields
    /// The key the section is written under, for `missing key `playbook` in ansible`.
    private let key: String
    private let errorsBefore: Int

    init(reader: ManifestReader, fields: YAMLFields, key: String) {
        self.reader = reader
        self.fields = fields
        self.key = key
        errorsBefore = reader.errors.count
    }

    /// The manifest's folder, absolute: the base of relative paths.
    public var folder: String { reader.folder }

    /// Whether anything in this section was reported so far.
    public var hasErrors: Bool { reader.errors.count > errorsBefore }

    /// Whether the section has `key`.
    public func contains(_ key: String) -> Bool { fields[key] != nil }

    // MARK: - Reporting

    /// Reports `message` at the value of `key`, or at the section when the key is absent.
    public mutating func report(_ message: String, at key: String) {
        reader.report(message, at: fields[key].map(SourcePosition.init) ?? fields.position)
    }

    /// Reports `message` at the start of the section.
    public mutating func report(_ message: String) {
        reader.report(message, at: fields.position)
    }

    // MARK: - Values

    /// A non-empty string; a missing `key` is reported when `required`.
    public mutating func string(_ key: String, required: Bool = false) -> String? {
        guard let node = node(key, required: required) else { return nil }
        return reader.nonEmptyString(node)
    }

    /// A YAML boolean.
    public mutating func boolean(_ key: String) -> Bool? {
        fields[key].flatMap { reader.boolean($0) }
    }

    /// A list of strings.
    public mutating func strings(_ key: String) -> [String]? {
        fields[key].flatMap { reader.stringList($0) }
    }

    /// A YAML boolean or a list of strings (`upgrade: true`, `upgrade: [curl]`): the boolean,
    /// or the list, whichever the value is.
    public mutating func booleanOrList(_ key: String) -> (Bool?, [String]?) {
        guard let node = fields[key] else { return (nil, nil) }
        if case .sequence = node { return (nil, reader.stringList(node)) }
        return (reader.boolean(node), nil)
    }

    /// A list of strings, or one non-empty string as a list of one.
    public mutating func stringOrList(_ key: String) -> [String]? {
        guard let node = fields[key] else { return nil }
        if case .sequence = node { return reader.stringList(node) }
        return reader.nonEmptyString(node).map { [$0] }
    }

    /// A command as an update's `install` is written: a non-empty argv list or a string for
    /// `/bin/sh -c`. A program given as a path must be an executable file (relative to
    /// `workingDirectory`); a name not on `PATH` is a warning.
    public mutating func command(_ key: String, required: Bool = false, workingDirectory: String? = nil,
                                 environment: [String: String] = [:]) -> UpdateCommand? {
        guard let node = node(key, required: required), let command = reader.command(node) else { return nil }
        if case .argv(let arguments) = command {
            reader.checkProgram(arguments[0], at: SourcePosition(node.sequence?.first ?? node),
                                workingDirectory: workingDirectory ?? folder, environment: environment)
        }
        return command
    }

    /// Environment variables as an update's `env` is written.
    public mutating func environment(_ key: String) -> [String: String]? {
        fields[key].flatMap { reader.environment($0) }
    }

    /// An existing folder as an update's `workdir` is written: absolute, relative paths from
    /// the manifest's folder.
    public mutating func directory(_ key: String) -> String? {
        fields[key].flatMap { reader.directory($0) }
    }

    /// An existing folder (`chroot`, `installroot`), absolute, relative paths from the
    /// manifest's folder; one that is not a folder is reported at its value as `KEY `PATH` is
    /// not a folder`.
    public mutating func folder(_ key: String) -> String? {
        guard let path = string(key) else { return nil }
        let folder = resolved(path)
        guard FileKind.of(folder) == .folder else {
            report("\(key) `\(folder)` is not a folder", at: key)
            return nil
        }
        return folder
    }

    /// `path` absolute: `~` is the home folder and relative paths start at the manifest's folder.
    public func resolved(_ path: String) -> String {
        let expanded = PathText.expandingTilde(path)
        return URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
    }

    private mutating func node(_ key: String, required: Bool) -> Node? {
        if let node = fields[key] { return node }
        if required { reader.report("missing key `\(key)` in \(self.key)", at: fields.position) }
        return nil
    }
}
