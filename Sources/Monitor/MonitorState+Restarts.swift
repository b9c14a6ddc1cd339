import Foundation
import InstallEngine
import RestartScan

extension MonitorState {
    /// The restart advice of the job that completed last with one (rule 32): the newest scan
    /// of the machine; `nil` before any job carried one.
    public var newestRestartAdvice: RestartAdvice? {
        queue.jobs.filter { $0.result?.restartAdvice != nil }
            .max { ($0.completedAt ?? .distantPast) < ($1.completedAt ?? .distantPast) }?
            .result?.restartAdvice
    }

    /// The header's "3 services to restart" (or "3 restarts" when `wide` is false); empty when
    /// no service needs a restart.
    func restartHeaderText(wide: Bool) -> String {
        let count = newestRestartAdvice?.services.count ?? 0
        guard count > 0 else { return "" }
        return wide ? "\(count) \(count == 1 ? "service" : "services") to restart" : "\(count) to restart"
    }
}
