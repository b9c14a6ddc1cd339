/// Merges consecutive `.progress` reports from one read of the progress channel into one:
/// the latest percent, with the latest message any of them carried. Any other report must
/// `take()` the pending one first, so the order of what the child said is kept.
struct ProgressCoalescer {
    private var percent: Double?
    private var message: String?

    mutating func add(percent: Double, message: String?) {
        self.percent = percent
        if let message { self.message = message }
    }

    /// The merged progress report, if any is pending; the coalescer is empty afterwards.
    mutating func take() -> UpdateReport? {
        guard let percent else { return nil }
        defer { (self.percent, self.message) = (nil, nil) }
        return .progress(percent: percent, message: message)
    }
}
