/// A host whose script said nothing: ssh's own last words (or sudo's, or the remote shell's),
/// or how long it was waited for.
struct HostUnreachable: Error, Sendable {
    var reason: String
}
