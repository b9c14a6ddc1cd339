import TerminalUI

/// A line of text typed into the monitor: the main view's `/` filter and the history view's.
/// Characters and Backspace edit it, Enter keeps the text and stops editing, Esc clears it and
/// stops; any other key is left to the view.
public struct TextInput: Sendable, Hashable {
    /// What was typed; empty when nothing is.
    public internal(set) var text = ""
    /// True while keys type into it.
    public internal(set) var isEditing = false

    public init() {}

    /// Starts editing (the text typed so far is kept).
    mutating func beginEditing() { isEditing = true }

    /// Replaces the text, editing or not.
    mutating func set(_ newText: String) { text = newText }

    /// Handles `key` while editing. Returns `nil` for a key that is not for the text (arrows,
    /// function keys: they keep their usual meaning), otherwise whether the text changed.
    mutating func edit(_ key: Key) -> Bool? {
        switch key {
        case .character(let character):
            text.append(character)
            return true
        case .backspace:
            guard !text.isEmpty else { return false }
            text.removeLast()
            return true
        case .enter:
            isEditing = false
            return false
        case .escape:
            isEditing = false
            guard !text.isEmpty else { return false }
            text = ""
            return true
        default:
            return nil
        }
    }
}
