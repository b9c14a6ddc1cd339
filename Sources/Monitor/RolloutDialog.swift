import InstallEngine
import TerminalUI
import EngineWire

/// The rollout's one question (`U`), laid out for the monitor's body: what happens (the
/// parallelism and the failure rule), then each host's plan: a line with its counts and
/// download as its engine planned them (or `planning…`), its Essential packages named, then
/// its packages, removals first; scrolled when it does not fit. The renderer draws it and the
/// keys move and scroll it, from the same layout.
struct RolloutDialog {
    /// One line of the list.
    enum Line: Hashable {
        /// Host `index` of the rollout: `[x] web1 · 3 to upgrade · 1.2 MB to download`.
        case host(index: Int, text: String, included: Bool)
        /// A package of that host's plan.
        case package(PlanDialog.Row)
        /// What a host's plan says besides its packages (`planning…`, the Essential warning,
        /// what it holds back).
        case note(String, warning: Bool)
    }

    /// The widest the box gets.
    static let maximumWidth = 96

    let box: Rect
    /// What `y` does, wrapped to the box.
    let heading: [String]
    let lines: [Line]
    /// Lines of the list shown at once.
    let listHeight: Int

    init(state: MonitorState) {
        let area = state.layout.body
        let width = min(Self.maximumWidth, area.width)
        let innerWidth = max(1, width - 2)
        let sanitizer = state.glyphs.sanitizer
        let rollout = state.rollout ?? Rollout(hosts: [], parallel: state.rolloutParallel)
        let count = rollout.hosts.count
        heading = PlanDialog.wrap(
            "Upgrade \(count) \(count == 1 ? "host" : "hosts") (\(Rollout.jobName(full: rollout.full)))? · \(rollout.parallel) at a time, in this order · "
                + "after a host's job fails, no new host starts until you say so (U continues, X stops); the running ones go on"
                + (rollout.confirmSeconds.map { seconds in
                    " · each host's upgrade is undone on the host by itself unless kept within \(MonitorState.durationText(seconds)) "
                        + (state.confirmByLogin ? "(kept once a fresh ssh login works and no check regressed; K keeps one)"
                            : "(K on its row keeps it)")
                } ?? ""),
            width: innerWidth)
        var lines: [Line] = []
        for (index, host) in rollout.hosts.enumerated() {
            let name = sanitizer.sanitize(host.name)
            if case .notQueued(let reason, let upToDate) = host.phase {
                lines.append(.host(index: index, text: "\(name) · " + (upToDate ? "up to date, nothing to upgrade" : "refused"), included: false))
                if !upToDate { lines.append(.note(sanitizer.sanitize(reason), warning: true)) }
                continue
            }
            guard let job = host.job.flatMap({ state.queue.job($0) }) else {
                let word = host.phase == .declined ? "declined" : "planning" + String(state.glyphs.box.ellipsis)
                lines.append(.host(index: index, text: "\(name) · \(word)", included: host.included))
                continue
            }
            // The engine's plan put its counts and download after the name it was given.
            let prefix = Rollout.jobName(full: rollout.full) + " · "
            let summary = job.descriptor.name.hasPrefix(prefix) ? String(job.descriptor.name.dropFirst(prefix.count)) : job.descriptor.name
            let plan = job.descriptor.updates.isEmpty ? "nothing to upgrade" : sanitizer.sanitize(summary)
            lines.append(.host(index: index, text: "\(name) · \(plan)", included: host.included))
            let changes = job.descriptor.updates.compactMap(\.package)
            if let warning = PackageChange.essentialWarning(changes) { lines.append(.note(sanitizer.sanitize(warning), warning: true)) }
            // Armed: what the checks after the job cannot judge, named before the yes.
            if rollout.confirmSeconds != nil {
                for change in changes where change.takesEffectOnlyAfterReboot {
                    lines.append(.note(sanitizer.sanitize(PackageChange.rebootOnlyNote(change.package)), warning: false))
                }
            }
            let dialog = PlanDialog(name: job.descriptor.name, updates: job.descriptor.updates, area: area, sanitizer: sanitizer)
            lines += dialog.rows.map { .package($0) }
            // What this upgrade leaves, as the row counts it: without it the row's `1 held
            // back` is nowhere in the plan, and the operator cannot tell it was seen.
            let planned = Set(changes.map(\.package))
            let left = (state.board?.pending[host.name]?.heldBack ?? []).filter { !planned.contains($0.name) }
            if !left.isEmpty {
                let named = left.map { "\($0.name) (\($0.reason.text))" }.joined(separator: ", ")
                lines.append(.note(sanitizer.sanitize("holds back \(named)" + (rollout.full ? "" : "; D upgrades fully")), warning: false))
            }
        }
        self.lines = lines
        // Border, heading, a blank line, the list, the keys' line.
        let fixed = 2 + heading.count + 1 + 1
        listHeight = max(1, min(lines.count, area.height - fixed))
        let height = min(area.height, fixed + listHeight)
        box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    }

    /// The furthest the list scrolls: its last line at the bottom.
    var maximumScroll: Int { max(0, lines.count - listHeight) }

    /// The line of host `index`.
    func line(ofHost index: Int) -> Int? {
        lines.firstIndex { line in
            if case .host(index, _, _) = line { return true }
            return false
        }
    }

    /// `scroll` moved as little as needed for host `index`'s line to show.
    func scroll(_ scroll: Int, showing index: Int) -> Int {
        guard let line = line(ofHost: index) else { return scroll }
        if line < scroll { return line }
        if line >= scroll + listHeight { return min(maximumScroll, line - listHeight + 1) }
        return min(scroll, maximumScroll)
    }
}
