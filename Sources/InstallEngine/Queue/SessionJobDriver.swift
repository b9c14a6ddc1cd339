/// The driver of one job of a driver session: starting it attaches the job to the session's
/// reports (the session's process is already running); a stop stops this job only; a kill
/// stops the whole process (rule 25: the process is shared).
struct SessionJobDriver: ExecutorSharingDriver {
    let session: DriverSession
    let key: String

    var sharedExecutor: SerialWorkQueue { session.jobExecutor }

    func start(_ request: DriverRunRequest, reporter: any DriverReporter) -> any RunningDriver {
        let (slot, attached) = session.attach(key, reporter: reporter)
        return SessionJobHandle(session: session, key: key, slot: slot, attached: attached)
    }
}
