import InstallEngine

extension DriverProgress {
    /// What this progress means for update `index` of its job: its percent with the message,
    /// or the message alone when it has no percent, then the driver's job figure when it gave
    /// one. Empty when it carries nothing.
    func reports(about index: Int) -> [DriverReport] {
        var reports: [DriverReport] = []
        if let percent {
            reports.append(.update(index: index, .progress(percent: percent, message: message)))
        } else if let message {
            reports.append(.update(index: index, .message(message)))
        }
        if let jobPercent { reports.append(.jobProgress(percent: jobPercent)) }
        return reports
    }
}
