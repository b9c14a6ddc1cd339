/// The driver's status text for the whole job: what it does while no update is the one to say
/// it on (apt fetching files before dpkg starts, a repair after the last package finished).
extension JobMachine {
    /// Sets the job's status text, or clears it with `nil`; an empty text clears it too. A
    /// change is announced as progress of the current update, whose snapshot carries the text;
    /// the same text again changes nothing. Taken only while the driver runs: a driver's text
    /// after the job completed would change a settled job.
    mutating func driverJobMessage(_ text: String?, into actions: inout [JobAction]) {
        guard phase == .driverRunning else { return }
        let text = text?.isEmpty == true ? nil : text
        guard text != jobMessage else { return }
        jobMessage = text
        notify(.progress(index: currentIndex), into: &actions)
    }
}
