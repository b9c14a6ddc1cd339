#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallEngine
import TerminalUI

/// Commit-confirmed runs on the monitor and the board (Documentation/COMMIT-CONFIRMED.md): the
/// engines push their runs (`armed`), a host's row counts its armed run down and then says how
/// it ended, `K` keeps the selected host's run (a monitor of one engine: its newest), `W` sets
/// the window the board's next `U`/`D` arms its hosts with and `L` whether the board keeps a
/// host's run by itself once a fresh ssh login to it works and none of its checks regressed.
extension MonitorState {
    /// The windows `W` goes through, in seconds; `nil` arms nothing.
    static let confirmWindowChoices: [Double?] = [nil, 300, 900, 3600]

    /// How long a decided run's word stays on its host's row.
    static let armedWordLifetime: TimeInterval = 3600

    // MARK: - Events

    /// An engine's runs: the local engine's (`host` nil) or a host's. On the board, a run of
    /// the rollout newly armed is kept after a fresh login when `L` asked for that.
    mutating func armedRunsChanged(_ runs: ArmedRuns, host: String?) -> [MonitorEffect] {
        guard let host else {
            armedRuns = runs
            return [.redraw]
        }
        guard board?.host(named: host) != nil else { return [] }
        board?.armed[host] = runs
        return keepByLogin(host: host) + [.redraw]
    }

    /// The fresh login for `host`'s run `run` ended: kept when it worked; otherwise said, and
    /// the run is left to its deadline.
    mutating func freshLoginEnded(host: String, run: Int, failure: String?) -> [MonitorEffect] {
        guard let failure else {
            say("\(host): a fresh ssh login works: keeping run \(run)")
            return [.keepRun(host: host, run: run)]
        }
        let deadline = board?.armed[host]?.runs.first { $0.run == run }?.deadline
        say("\(host): a fresh ssh login failed (\(failure)): run \(run) is not kept"
            + (deadline.map { "; it is reverted at \(clockTime($0)) unless K keeps it" } ?? ""), lifetime: 30)
        return [.redraw]
    }

    /// The rollout's run of `host`, armed and not yet tried, logged into afresh when `L` is on:
    /// only a run whose job this rollout ran (its name), armed since the rollout began.
    private mutating func keepByLogin(host: String) -> [MonitorEffect] {
        guard confirmByLogin, let since = armedRolloutSince, let rolloutHost = rollout?.hosts.first(where: { $0.name == host }),
              let job = rolloutHost.job.flatMap({ queue.job($0) }), let run = board?.armed[host]?.newest, run.state == .armed,
              run.name == job.descriptor.name, run.armedAt >= since.addingTimeInterval(-60),
              freshLogins.insert("\(host)#\(run.run)").inserted
        else { return [] }
        guard run.regressions.isEmpty else {
            say("\(host): run \(run.run) is not kept by login: \(run.regressions.joined(separator: "; ")) regressed; "
                + "K keeps it, else it is reverted at \(clockTime(run.deadline))", lifetime: 30)
            return []
        }
        return [.keepRunAfterFreshLogin(host: host, run: run.run)]
    }

    // MARK: - Keys

    /// `K`: keeps the selected host's armed run (a monitor of one engine: its newest armed run).
    mutating func keepArmedRun() -> [MonitorEffect] {
        if board != nil {
            guard let host = selectedHost else {
                say("No host selected")
                return []
            }
            guard let run = board?.armed[host]?.runs.first(where: { $0.state == .armed }) else {
                say("\(host): no run waits for a confirmation")
                return []
            }
            say("\(host): keeping run \(run.run)" + (run.regressions.isEmpty ? "" : " (regressed: \(run.regressions.joined(separator: "; ")))"))
            return [.keepRun(host: host, run: run.run)]
        }
        guard let run = armedRuns?.runs.first(where: { $0.state == .armed }) else {
            say("No run waits for a confirmation")
            return []
        }
        say("Keeping run \(run.run)")
        return [.keepRun(host: nil, run: run.run)]
    }

    /// `W`: the next window the board's `U` and `D` arm their hosts with.
    mutating func cycleConfirmWindow() {
        let choices = Self.confirmWindowChoices
        let index = choices.firstIndex { $0 == confirmWindowSeconds } ?? 0
        confirmWindowSeconds = choices[(index + 1) % choices.count]
        if let seconds = confirmWindowSeconds {
            say("U and D arm each host: its upgrade is undone on the host unless kept within \(Self.durationText(seconds)) "
                + "(K keeps the selected host's" + (confirmByLogin ? "; kept by a fresh ssh login when nothing regressed)" : "; L: kept by a fresh ssh login)"))
        } else {
            say("U and D arm nothing: upgrades stay as they end")
        }
    }

    /// `L`: whether the board keeps an armed run of its rollout once a fresh ssh login to the host works.
    mutating func toggleConfirmByLogin() {
        confirmByLogin.toggle()
        say(confirmByLogin ? "An armed host is kept once a fresh ssh login to it works and none of its checks regressed"
                + (confirmWindowSeconds == nil ? " (W sets the window)" : "")
            : "Armed hosts wait for K (or installtop confirm --run on the host)")
    }

    // MARK: - What is shown

    /// The word of `host`'s newest commit-confirmed run for its row, with its role: `armed
    /// 4m32s` counting down (failed-coloured when a check regressed), `reverting…`, and for an
    /// hour after the decision `confirmed`, `reverted` or `not reverted`.
    public func armedWord(ofHost host: String) -> (text: String, role: ThemeRole)? {
        guard let run = board?.armed[host]?.newest else { return nil }
        return armedWord(run)
    }

    func armedWord(_ run: ArmedRun) -> (text: String, role: ThemeRole)? {
        switch run.state {
        case .armed:
            return ("armed " + TimeText.remaining(run.deadline.timeIntervalSince(now)), run.regressions.isEmpty ? .status : .failed)
        case .reverting:
            return ("reverting" + String(glyphs.box.ellipsis), .aborted)
        case .confirmed, .reverted, .expired:
            guard let decided = run.decidedAt, now.timeIntervalSince(decided) < Self.armedWordLifetime else { return nil }
            switch run.state {
            case .confirmed: return ("confirmed", .succeeded)
            case .reverted: return ("reverted", .failed)
            default: return ("not reverted", .failed)
            }
        }
    }

    /// The header's words for the local engine's newest open run: `run 12 armed 4m32s · K keeps it`.
    public var armedHeaderText: String? {
        guard let run = armedRuns?.runs.first(where: { $0.state.isOpen }), let word = armedWord(run) else { return nil }
        return "run \(run.run) \(word.text)" + (run.state == .armed ? " · K keeps it" : "")
    }

    /// The board header's words for the window its next rollout arms with: `confirm 5m (login)`.
    public var confirmWindowHeaderParts: [String] {
        guard let seconds = confirmWindowSeconds else { return [] }
        return ["confirm " + Self.durationText(seconds) + (confirmByLogin ? " by login" : "")]
    }

    /// Whether a countdown runs somewhere: the monitor ticks every second meanwhile.
    var armedCountsSeconds: Bool {
        armedRuns?.runs.contains { $0.state.isOpen } == true
            || board?.armed.values.contains { $0.runs.contains { $0.state.isOpen } } == true
    }

    /// `5m`, `1h`.
    static func durationText(_ seconds: Double) -> String { Duration.seconds(Int64(seconds)).shortText }

    /// `12:34:56` in the monitor's time zone.
    func clockTime(_ date: Date) -> String {
        TimeText.clock(date, in: timeZone ?? .current)
    }
}
