/// The apt root an engine's undos act on (`u` in the history view, `serve`'s `undo`): the
/// `--apt-config` and `--chroot` of the command that owns the engine; both `nil` for this
/// system's apt.
struct APTUndoRoot: Sendable, Hashable {
    var aptConfig: String?
    var chroot: String?
}
