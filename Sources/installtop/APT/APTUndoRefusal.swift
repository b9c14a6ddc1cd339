/// Why `installtop apt undo` changes nothing (exit 2), in words that say what to do.
struct APTUndoRefusal: Error, Sendable, Hashable {
    let message: String
}
