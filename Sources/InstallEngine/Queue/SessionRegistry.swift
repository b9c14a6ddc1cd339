/// A queue's driver sessions (rule 27), by the queue machine's session number: the drivers of
/// sessions still waiting for a slot, and the sessions running.
struct SessionRegistry {
    private var running: [Int: DriverSession] = [:]
    private var waiting: [Int: any SessionDriver] = [:]

    /// Keeps `driver` until session `id` is given a slot.
    mutating func wait(_ id: Int, driver: any SessionDriver) {
        waiting[id] = driver
    }

    /// Session `id` got a slot and runs as `session`; returns its driver, to start.
    mutating func begin(_ id: Int, _ session: DriverSession) -> (any SessionDriver)? {
        running[id] = session
        return waiting.removeValue(forKey: id)
    }

    /// Session `id`'s process is gone and its jobs settled.
    mutating func end(_ id: Int) {
        running[id] = nil
    }

    /// The running session `id`.
    subscript(id: Int) -> DriverSession? { running[id] }
}
