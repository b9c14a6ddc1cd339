/// Something a host lacks or has otherwise than this machine, and what fixes it.
struct HostFinding: Sendable, Equatable {
    /// What it is about: `apt`, `installtop`, `engine`, `hooks` or `link`.
    var subject: String
    /// What is missing or differs, with the host's own words where it gave some.
    var text: String
    /// The command or change that fixes it.
    var fix: String
}
