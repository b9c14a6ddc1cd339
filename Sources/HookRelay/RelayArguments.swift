/// The relay's command line: `EVENT --socket PATH`. Anything it does not understand makes it
/// a plain drain (it still reads its input to the end): a hook must never fail.
struct RelayArguments {
    /// `begin`, `plan`, `status` or `end`; `nil` for an unknown word.
    let event: String?
    /// The engine's socket; `nil` when not given.
    let socket: String?

    init(_ words: ArraySlice<String>) {
        var event: String?
        var socket: String?
        var rest = words[...]
        while let word = rest.popFirst() {
            if word == "--socket" {
                socket = rest.popFirst()
            } else if word.hasPrefix("--socket=") {
                socket = String(word.dropFirst("--socket=".count))
            } else if ["begin", "plan", "status", "end"].contains(word) {
                event = word
            }
        }
        self.event = event
        self.socket = socket
    }
}
