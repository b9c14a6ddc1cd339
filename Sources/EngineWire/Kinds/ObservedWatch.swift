/// A started `ObservedSource`, until the engine stops it.
public protocol ObservedWatch: Sendable {
    /// One message of installtop-relay (a hook call), on the server's I/O thread: it must
    /// neither block nor wait for a process or the disk. A source whose hooks did not send it
    /// ignores it; the relay gets no answer either way.
    func receive(_ report: ObservedReport)

    /// Stops following: no new job is made; a job shown already still ends with its process.
    /// Idempotent.
    func stop()
}
