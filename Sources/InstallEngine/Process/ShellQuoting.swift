/// Text as sh reads it back as one word: for the commands installtop tells an operator to run
/// and the scripts it writes.
public enum ShellQuoting {
    /// `text` in single quotes, each single quote in it written `'\''`.
    public static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// `text` as it is when sh reads it as one word unchanged (letters, digits, `/._-+=:,@`),
    /// else single-quoted.
    public static func word(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+=:,@".contains($0) } ? text : singleQuoted(text)
    }
}
