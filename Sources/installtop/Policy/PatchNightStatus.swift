import PatchPolicy

/// `installtop patch --policy FILE --status [--json]`: the night as its stamp records it, for
/// anyone off a terminal (a script, a timer's journal, a colleague over ssh): its window,
/// phase, wave and each host's step. Reads the stamp only; asks no host.
struct PatchNightStatus {
    let stampFile: StampFile
    let json: Bool
    /// The instant the window is said open or closed at (seconds since 1970).
    let now: Int

    func run() -> Int32 {
        let stamp: NightStamp
        do {
            guard let read = try stampFile.read() else {
                StandardOutput.stderr.line("installtop: no night of this policy has run here (no stamp at \(stampFile.path))")
                return PatchNight.nothingToDo
            }
            stamp = read
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            return PatchNight.stampProblem
        }
        let summary = NightSummary(stamp: stamp)
        if json {
            StandardOutput.stdout.line(summary.json())
            return 0
        }
        for line in Self.lines(summary, stamp: stamp, now: now) { StandardOutput.stdout.line(line) }
        return 0
    }

    /// `policy: …`, `window: … (open)`, `phase: …`, then `h1 (wave 1): confirmed` per host,
    /// with what became of its reboot when it needed one (`; reboot: rebooted, back after 42 s`).
    static func lines(_ summary: NightSummary, stamp: NightStamp, now: Int) -> [String] {
        let open = stamp.window.isOpen(at: now) ? "open" : (now < stamp.window.start ? "not open yet" : "closed")
        var phase = PatchNight.words(stamp.machine.phase)
        if !stamp.machine.phase.isOver { phase += " (of \(summary.waves) waves)" }
        return ["policy: \(summary.policy)", "window: \(PatchNight.span(stamp.window)) (\(open))", "night: \(phase)"]
            + summary.hosts.map { "\($0.host) (wave \($0.wave)): \($0.step)" + ($0.reason.map { ": \($0)" } ?? "")
                + ($0.reboot.map { "; reboot: \($0)" } ?? "") }
    }
}
