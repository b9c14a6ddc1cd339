import EngineWire

extension ServerLoop {
    /// A hook's message (installtop-relay): handed to the observed transactions. Never answered:
    /// the relay does not read, and a reply it left unread would only fill its socket.
    func observe(_ report: ObservedReport) -> WireReply? {
        server.observed.receive(report)
        return nil
    }
}
