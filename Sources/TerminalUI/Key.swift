/// A key press as the app understands it, independent of the terminal library.
public enum Key: Sendable, Hashable {
    /// A printable character (letters keep their case).
    case character(Character)
    /// Ctrl plus a letter, lower-cased (`.control("c")` for Ctrl-C), for the control codes that
    /// are not Tab, Enter or Backspace.
    case control(Character)
    /// Arrow keys.
    case up, down, left, right
    /// Navigation keys.
    case pageUp, pageDown, home, end
    /// Editing keys (`delete` is the forward-delete key).
    case insert, delete, backspace
    /// `backTab` is Shift-Tab.
    case tab, backTab, enter, escape
    /// F1…F63 as `.function(1)`…
    case function(Int)
    /// The terminal changed size; the adapter has already updated its size.
    case resize

    /// Ctrl-C (normally a SIGINT instead, since the terminal is not in raw mode).
    public static let controlC = Key.control("c")

    /// The key for a character the terminal delivered as text: control codes become their key
    /// (0x09 Tab, 0x0D and 0x0A Enter, 0x1B Escape, 0x08 and 0x7F Backspace, 0x01–0x1A
    /// `.control(a…z)`); other C0 and C1 controls give `nil`; anything else is `.character`.
    public init?(scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x09: self = .tab
        case 0x0A, 0x0D: self = .enter
        case 0x1B: self = .escape
        case 0x08, 0x7F: self = .backspace
        case 0x01...0x1A: self = .control(Character(Unicode.Scalar(scalar.value + 0x60)!))
        case 0x00...0x1F, 0x80...0x9F: return nil
        default: self = .character(Character(scalar))
        }
    }
}
