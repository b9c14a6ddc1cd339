/// What the thread running the current code says about itself, for a producer deciding whether
/// to run a little work here (`SerialWorkQueue.enqueueToRunHere`) or wake a pool thread for it.
///
/// Only the threads that know set it, around the calls they make: the process poller when it
/// settles the end of the only child it watches, a serial queue when it resumes those waiting
/// for a delivery and has nothing more to deliver. Everywhere else it is false: a thread that
/// has other work (a thousand children to read, callbacks to deliver) hands the work on, so
/// that it runs beside that work rather than in front of it.
public enum CallingThread {
    /// True while the calling thread has nothing else waiting for it.
    @TaskLocal public static var hasNothingWaiting = false
}
