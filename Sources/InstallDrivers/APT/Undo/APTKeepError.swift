/// Why one package's replaced version could not be kept: the words said on its update and
/// recorded in the history as the run's reason for not being undoable.
struct APTKeepError: Error, Sendable, Hashable {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
