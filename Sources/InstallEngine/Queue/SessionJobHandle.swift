/// A running job of a driver session.
struct SessionJobHandle: RunningDriver {
    let session: DriverSession
    let key: String
    let slot: OutcomeSlot
    /// The session's ticket for attaching the job: its outcome counts only after the reports
    /// that waited for the job reached it.
    let attached: UInt64

    func stopAtSafePoint() { session.stop(key: key) }

    func kill() { session.kill() }

    var outcome: UpdateRunOutcome {
        get async {
            await session.waitUntilHandled(attached)
            return await slot.outcome
        }
    }

    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        session.whenHandled(attached) { [slot] in slot.whenSettled(handler) }
    }
}
