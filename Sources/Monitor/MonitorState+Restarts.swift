#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import RestartScan
import TerminalUI

extension MonitorState {
    /// The restart advice of the job that completed last with one (rule 32): the newest scan
    /// of the machine; `nil` before any job carried one.
    /// On the grouped board, the selected host's.
    public var newestRestartAdvice: RestartAdvice? {
        if board != nil { return selectedHost.flatMap { restartAdvice(ofHost: $0) } }
        return queue.jobs.filter { $0.result?.restartAdvice != nil }
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

extension MonitorState {
    /// `R`: asks whether to restart the services the newest scan lists, listing them with those
    /// left out and the processes of no service; says in the status line when there is nothing
    /// to restart.
    mutating func requestServiceRestarts() {
        guard let advice = newestRestartAdvice else {
            say("No restart scan yet: each job that completes scans for old code")
            return
        }
        var plan = ServiceRestartPlan(advice)
        plan.host = board != nil ? selectedHost : nil
        guard plan.restart.isEmpty else {
            overlay = .confirm(.restartServices(plan))
            return
        }
        var text = "No service to restart"
        if !plan.leftOut.isEmpty {
            text += "; left out: \(plan.leftOut.map { glyphs.sanitizer.sanitize($0) }.joined(separator: ", ")) (installtop restart-services UNIT)"
        }
        if !plan.bare.isEmpty {
            text += "; \(plan.bare.count) \(plan.bare.count == 1 ? "process" : "processes") of no service (never killed)"
        }
        say(text)
    }

    /// `y` to the question of `R`: the restart job, as `installtop restart-services` submits it.
    mutating func confirmServiceRestarts(_ plan: ServiceRestartPlan) -> [MonitorEffect] {
        let count = plan.restart.count
        if let host = plan.host {
            if refusesStale(host: host) { return [] }
            say("Restarting \(count) \(count == 1 ? "service" : "services") on \(host)")
            return [.submitOnHost(host: host, name: RestartJobPlan.jobName, updates: RestartJobPlan.updates(restarting: plan.restart))]
        }
        say("Restarting \(count) \(count == 1 ? "service" : "services")")
        return [.submit(name: RestartJobPlan.jobName, updates: RestartJobPlan.updates(restarting: plan.restart))]
    }
}

extension MonitorState {
    /// Enter in the jobs pane: the selected job's detail, from its top.
    mutating func openJobDetail() {
        guard let job = selectedJob else {
            say("No job selected")
            return
        }
        overlay = .jobDetail(job: job.id, scroll: 0)
    }

    /// A key in the job's detail: the arrows, PgUp, PgDn, Home and End scroll it; Esc, `q`
    /// and Enter close it.
    mutating func scrollJobDetail(job: Int, scroll: Int, key: Key) {
        if [.escape, .character("q"), .enter].contains(key) {
            overlay = nil
            return
        }
        guard let detail = JobDetail(job: job, state: self) else {
            overlay = nil
            return
        }
        let page = MonitorLayout.innerRows(layout.body)
        if let next = DialogScroll.scroll(scroll, after: key, page: page, maximum: detail.maximumScroll(page: page)) {
            overlay = .jobDetail(job: job, scroll: next)
        }
    }
}
