import InstallEngine
import TextBasics

/// What `installtop patch --policy FILE --check` prints: the night the policy plans, as lines.
public enum PolicyPlanText {
    /// The plan of `policy` as of `now` (seconds since 1970): its hosts, its next window (or the
    /// one open now) in the policy's zone and, through `localTime`, in this machine's local
    /// time, each wave's hosts, the gate, the budget, and the rest of the settings.
    public static func lines(of policy: PatchPolicy, now: Int, localTime: (Int) -> String) -> [String] {
        var lines = ["\(policy.path): OK"]
        let groups = policy.hosts.groups.isEmpty ? "" : " (groups \(policy.hosts.groups.joined(separator: ", ")))"
        lines.append("hosts: \(count(policy.hosts.names.count, "host")) of \(policy.hosts.inventory)\(groups)")
        if let occurrence = policy.schedule.occurrence(at: now) {
            let label = occurrence.isOpen(at: now) ? "window (open now)" : "next window"
            lines.append("\(label): \(zoned(occurrence.start, policy.zone, weekday: true)) to \(zoned(occurrence.end, policy.zone, weekday: false)) "
                + policy.zone.name)
            lines.append("  in local time: \(localTime(occurrence.start)) to \(localTime(occurrence.end))")
        } else {
            lines.append("next window: none in the next \(WindowSchedule.horizonDays / 366) years (no window opens on a day that is not blacked out)")
        }
        if !policy.blackouts.isEmpty {
            lines.append("blackouts: \(policy.blackouts.map(\.description).joined(separator: ", "))")
        }
        for (index, wave) in policy.hostWaves.enumerated() {
            lines.append("wave \(index + 1) (\(wave.label), \(count(wave.hosts.count, "host"))): \(wave.hosts.joined(separator: ", "))")
        }
        lines.append("at once: \(count(policy.waves.atOnce, "host")) of a wave")
        let command = policy.gate.command.map { ", then `\($0.displayString)` exits 0" } ?? ""
        lines.append("gate: each host of a wave armed with --confirm \(durationText(policy.gate.confirm)); none reverted and at least one confirmed\(command)")
        let tolerated = policy.failureBudget.tolerated(of: policy.hosts.names.count)
        lines.append("failure budget: \(policy.failureBudget.description) (\(tolerated) of \(count(policy.hosts.names.count, "host")) may fail, "
            + "revert or be unreachable; one more stops the night)")
        lines.append("age: an update is taken \(ageText(policy.age.updates)), a security update \(ageText(policy.age.security))")
        lines.append("packages: \(policy.packages.description)")
        if let before = policy.hostCommands.before { lines.append("before each host: \(before.displayString)") }
        if let after = policy.hostCommands.after { lines.append("after each host: \(after.displayString)") }
        lines.append(policy.reboot.enabled
            ? "reboots: hosts that need one, inside the window, at most \(policy.reboot.atOnce) at once, never this machine, "
                + "with `\(policy.reboot.command)`, each back within \(Duration.seconds(policy.reboot.timeout).shortText) or the night stops"
            : "reboots: none")
        if let notify = policy.notify { lines.append("notify: \(notify.displayString)") }
        return lines
    }

    /// `tuesday 2026-03-31 02:00 (UTC+02:00)`: the instant's wall-clock time in `zone`.
    static func zoned(_ instant: Int, _ zone: ZoneRules, weekday: Bool) -> String {
        let local = zone.local(ofInstant: instant)
        let date = CivilDate(daysSince1970: PosixZoneRule.floorDivide(local, 86_400))
        let minute = (local - date.daysSince1970 * 86_400) / 60
        let offset = zone.offset(at: instant).seconds
        let sign = offset < 0 ? "-" : "+"
        let offsetText = "UTC\(sign)\(PatchWindow.clockText(minutes: abs(offset) / 60))"
        return (weekday ? "\(date.weekday.name) " : "") + "\(date) \(PatchWindow.clockText(minutes: minute)) (\(offsetText))"
    }

    /// `7d`, `1d12h`, `15m`, `0s`.
    public static func durationText(_ seconds: Int) -> String {
        guard seconds > 0 else { return "0s" }
        var rest = seconds
        var text = ""
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }

    /// `once 7d old`, or `at once` for 0.
    private static func ageText(_ seconds: Int) -> String { seconds == 0 ? "at once" : "once \(durationText(seconds)) old" }

    private static func count(_ value: Int, _ noun: String) -> String { value == 1 ? "1 \(noun)" : "\(value) \(noun)s" }
}
