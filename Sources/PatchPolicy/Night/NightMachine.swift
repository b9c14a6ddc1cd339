/// A patch night as a value: each host's step, the wave being patched, the gate between waves,
/// the failure budget and the window, with no clock and no I/O. Every input returns the actions
/// its runner performs in order (the swift-nio shape); a stamp of the machine (`NightStamp`)
/// written before each step is all a restarted process needs to resume without starting any
/// host twice: a host is started only from `pending`.
public struct NightMachine: Sendable, Hashable, Codable {
    public let waves: [Wave]
    /// Hosts of a wave patched at once, at least 1.
    public let atOnce: Int
    /// Failures tolerated; one more stops the night.
    public let tolerated: Int
    public private(set) var steps: [String: HostStep]
    public private(set) var phase: NightPhase
    /// `false` once the window closed: no host is started after that.
    public private(set) var windowOpen = true
    /// What became of each host's reboot, for the hosts that needed one (`HostReport.reboot`);
    /// `nil` until one did, so that stamps written before reboots existed still read.
    public private(set) var reboots: [String: String]?

    /// A night of `waves` that has not begun; with no waves it is finished at once.
    public init(waves: [Wave], atOnce: Int, tolerated: Int) {
        self.waves = waves
        self.atOnce = max(1, atOnce)
        self.tolerated = max(0, tolerated)
        steps = Dictionary(waves.flatMap(\.hosts).map { ($0, HostStep.pending) }, uniquingKeysWith: { first, _ in first })
        phase = waves.isEmpty ? .finished : .patching(wave: 0)
    }

    /// The hosts whose step counts against the budget.
    public var failures: Int { steps.values.filter(\.isFailure).count }

    /// The hosts started and not yet reported.
    public var running: [String] { waves.flatMap(\.hosts).filter { steps[$0] == .running } }

    // MARK: - Inputs

    /// Starts the night (inside its window): the first hosts of the first wave.
    public mutating func begin() -> [NightAction] { advance() }

    /// Continues a machine read from a stamp after a restart: the hosts it says were running
    /// are recovered (asked how they ended), never started again; a gate that was being
    /// evaluated is evaluated again; free places in the wave are filled as usual.
    public mutating func resume() -> [NightAction] {
        var actions = running.map { host in NightAction.recoverHost(host, wave: waves.firstIndex { $0.hosts.contains(host) } ?? 0) }
        if case .gating(let wave) = phase { actions.append(.evaluateGate(wave: wave, confirmed: confirmed(in: wave))) }
        return actions + advance()
    }

    /// `host`'s step ended with `outcome` (and `reboot` says what became of its reboot); the
    /// stamp records it first, so a restart does not ask again. A report for a host that is not
    /// running (a repeat, or a host of no wave) changes nothing. A host that did not come back
    /// from its reboot (`notBack`) stops the night whatever the budget: no further host starts,
    /// the running ones finish, and the stop says that host even when the night was already
    /// stopping for another reason.
    public mutating func hostEnded(_ host: String, outcome: HostOutcome, reboot: String? = nil) -> [NightAction] {
        guard steps[host] == .running else { return [] }
        steps[host] = outcome.step
        if let reboot { reboots = (reboots ?? [:]).merging([host: reboot]) { _, new in new } }
        let actions: [NightAction]
        if case .notBack = outcome {
            actions = stop(.hostNotBack(host: host), overriding: true)
        } else {
            actions = advance()
        }
        return actions.first == .writeStamp ? actions : [.writeStamp] + actions
    }

    /// The gate of wave `wave` passed or failed (`reason` says why, for a failure). A verdict
    /// for another wave than the one being gated changes nothing.
    public mutating func gateEvaluated(wave: Int, passed: Bool, reason: String = "") -> [NightAction] {
        guard case .gating(let gated) = phase, gated == wave else { return [] }
        guard passed else { return stop(.gateFailed(wave: wave, reason: reason)) }
        if wave + 1 == waves.count {
            phase = .finished
            return [.writeStamp, .notify(.wavePassed(wave: wave)), .notify(.finished)]
        }
        guard windowOpen else { return [.notify(.wavePassed(wave: wave))] + stop(.windowClosed) }
        phase = .patching(wave: wave + 1)
        return [.notify(.wavePassed(wave: wave))] + advance()
    }

    /// The window closed: no new host starts; the running ones finish, and then the night stops.
    /// A wave whose last hosts are running when it closes is gated once they end, and a gate
    /// being evaluated finishes too, so the last wave can still finish the night; neither
    /// starts a further wave.
    public mutating func windowClosed() -> [NightAction] {
        guard windowOpen else { return [] }
        windowOpen = false
        let actions = advance()
        return actions.first == .writeStamp ? actions : [.writeStamp] + actions
    }

    // MARK: - Rules

    /// What the machine's state calls for now: stop when the budget is spent or the window
    /// closed; else start pending hosts of the wave up to `atOnce`; when the wave's hosts have
    /// all ended, its gate.
    private mutating func advance() -> [NightAction] {
        switch phase {
        case .patching(let wave):
            if failures > tolerated { return stop(.budgetExhausted(failures: failures, tolerated: tolerated)) }
            if !windowOpen, waves[wave].hosts.contains(where: { steps[$0] == .pending }) { return stop(.windowClosed) }
            var actions: [NightAction] = []
            var busy = running.count
            for host in waves[wave].hosts where busy < atOnce && steps[host] == .pending {
                steps[host] = .running
                busy += 1
                actions += [.writeStamp, .startHost(host, wave: wave)]
            }
            guard busy == 0 else { return actions }
            return actions + gate(wave)
        case .draining(let reason):
            guard running.isEmpty else { return [] }
            phase = .stopped(reason)
            return [.writeStamp, .notify(.stopped(reason))]
        case .gating, .stopped, .finished:
            return []
        }
    }

    /// Every host of `wave` ended: the part of the gate the machine decides itself (no host
    /// reverted, at least one confirmed), then the command's part.
    private mutating func gate(_ wave: Int) -> [NightAction] {
        let hosts = waves[wave].hosts
        if let reverted = hosts.first(where: { if case .reverted = steps[$0] { true } else { false } }),
           case .reverted(let reason)? = steps[reverted] {
            return stop(.gateFailed(wave: wave, reason: "\(reverted) reverted: \(reason)"))
        }
        let confirmed = confirmed(in: wave)
        guard !confirmed.isEmpty else { return stop(.gateFailed(wave: wave, reason: "no host of the wave was confirmed")) }
        phase = .gating(wave: wave)
        return [.writeStamp, .evaluateGate(wave: wave, confirmed: confirmed)]
    }

    private func confirmed(in wave: Int) -> [String] { waves[wave].hosts.filter { steps[$0] == .confirmed } }

    /// Stops starting hosts; the night is over once the running ones have finished.
    /// With `overriding`, `reason` replaces the one a draining night already had.
    private mutating func stop(_ reason: NightStopReason, overriding: Bool = false) -> [NightAction] {
        guard running.isEmpty else {
            if case .draining = phase, !overriding { return [] }
            phase = .draining(reason)
            return [.writeStamp]
        }
        phase = .stopped(reason)
        return [.writeStamp, .notify(.stopped(reason))]
    }
}
