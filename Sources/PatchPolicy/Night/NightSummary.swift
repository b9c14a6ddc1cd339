#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A night as the policy's `notify:` command reads it on stdin and `installtop patch --status
/// --json` prints it (Documentation/POLICY.md): the policy, the window, where the night is, each
/// host's step and why it stopped. Times are RFC 3339 in UTC; waves are counted from 1.
public struct NightSummary: Sendable, Hashable, Codable {
    /// One host's step.
    public struct Host: Sendable, Hashable, Codable {
        public let host: String
        /// The wave it belongs to, from 1.
        public let wave: Int
        /// `pending`, `running`, `confirmed`, `failed`, `reverted` or `unreachable`.
        public let step: String
        /// Why it failed, reverted or was unreachable; absent otherwise.
        public let reason: String?
        /// What became of its reboot when it needed one (`rebooted, back after 42 s`, `needs a
        /// reboot (new kernel 6.1.0-28), left for the operator: …`); absent otherwise.
        public let reboot: String?
    }

    /// What the notify command is run for: `starting`, `wave-passed`, `stopped` or `finished`;
    /// absent in `--status`.
    public let event: String?
    public let policy: String
    public let windowStart: String
    public let windowEnd: String
    /// `patching`, `gating`, `draining`, `stopped` or `finished`.
    public let phase: String
    /// The wave being patched or gated, or the one that passed (`wave-passed`), from 1; absent
    /// when the night is over.
    public let wave: Int?
    public let waves: Int
    public let hosts: [Host]
    /// Why the night stopped or is stopping; absent otherwise.
    public let stopped: String?

    private enum CodingKeys: String, CodingKey {
        case event, policy, windowStart = "window_start", windowEnd = "window_end", phase, wave, waves, hosts, stopped
    }

    /// The summary of `stamp`, for `event` (`nil` for a status) about wave `wave` (0-based;
    /// `nil`: the machine's own).
    public init(stamp: NightStamp, event: String? = nil, wave: Int? = nil) {
        let machine = stamp.machine
        self.event = event
        policy = stamp.policy
        windowStart = Self.text(stamp.window.start)
        windowEnd = Self.text(stamp.window.end)
        waves = machine.waves.count
        var stopReason: NightStopReason?
        var current: Int?
        switch machine.phase {
        case .patching(let index): phase = "patching"; current = index
        case .gating(let index): phase = "gating"; current = index
        case .draining(let reason): phase = "draining"; stopReason = reason
        case .stopped(let reason): phase = "stopped"; stopReason = reason
        case .finished: phase = "finished"
        }
        self.wave = (wave ?? current).map { $0 + 1 }
        stopped = stopReason?.sentence
        hosts = machine.waves.enumerated().flatMap { index, wave in
            wave.hosts.map { host in
                let step = machine.steps[host] ?? .pending
                return Host(host: host, wave: index + 1, step: step.word, reason: step.reason, reboot: machine.reboots?[host])
            }
        }
    }

    /// The summary as one line of JSON, keys sorted.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// `2026-11-24T01:00:00Z`.
    public static func text(_ instant: Int) -> String {
        var seconds = time_t(instant)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
