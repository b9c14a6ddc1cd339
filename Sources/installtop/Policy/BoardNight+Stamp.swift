import Monitor
import PatchPolicy

extension BoardNight {
    /// The night `stamp` records, as the board shows it: its phase (the wave of how many, and
    /// until when its window is open) and each host's step, with its wave and why it failed.
    init(stamp: NightStamp) {
        let summary = NightSummary(stamp: stamp)
        let machine = stamp.machine
        // `2026-11-24 01:00–04:00 UTC`: its end.
        let until = "until " + (PatchNight.span(stamp.window).split(separator: "–").last.map(String.init) ?? "")
        switch machine.phase {
        case .patching(let wave):
            self.init(headline: "wave \(wave + 1) of \(summary.waves) · \(until)", steps: [:])
        case .gating(let wave):
            self.init(headline: "wave \(wave + 1) of \(summary.waves) at its gate · \(until)", steps: [:])
        case .draining, .stopped, .finished:
            self.init(headline: PatchNight.words(machine.phase), steps: [:])
        }
        for host in summary.hosts {
            steps[host.host] = "\(host.step) (wave \(host.wave))" + (host.reason.map { ": \($0)" } ?? "")
        }
    }
}
