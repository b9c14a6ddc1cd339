/// A step of enrolling a host, in the order they are taken.
enum EnrollStep: String, Sendable, CaseIterable {
    /// The installtop package copied over and installed with apt, at this installtop's version.
    case package
    /// The engine's unit enabled and started (or the engine command run), answering on its socket.
    case engine
    /// The apt and dpkg hooks installed.
    case hooks
    /// The board's own link (ssh and the remote command) reaching the engine.
    case link
}
