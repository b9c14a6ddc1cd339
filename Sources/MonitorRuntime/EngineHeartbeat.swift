/// Whether a connected host's engine still answers, told by the bytes its link brings: a host
/// whose ssh stays up while its engine is stopped (SIGSTOP) or hung says nothing, and nothing
/// else would notice.
///
/// The board asks rather than waits to be told. Once the host has sent nothing for
/// `probeAfter`, its link sends one cheap question (a `durations` request for no update, the
/// probe `EngineClient.request` already uses, which an engine answers at once from its I/O
/// thread, also while it plans a job); a host that then sends nothing more for `answerWait`
/// is silent. Any byte from the host (the answer, an event) counts as an answer. This needs
/// nothing new of the engines: every engine in a fleet answers the question, whatever its
/// version, where a heartbeat sent by the engine would make every older engine look hung to a
/// newer board. A host that talks asks nothing, and one silent host has one question
/// unanswered at most, however long it stays silent.
///
/// The waits: a probe after 2 s of silence, an answer within 4 s of it, so a host is marked
/// silent 6 s after its last byte (up to 8 s: `HostsEngineLink` checks on whole seconds, all
/// hosts in one turn). An engine answers the question in well under a millisecond;
/// 4 s leaves room for a loaded 2-core machine and a slow link without marking a busy host
/// silent and back again (flapping).
struct EngineHeartbeat: Sendable {
    /// Silence after which the link asks the engine whether it is alive.
    static let probeAfter = Duration.seconds(2)
    /// How long an asked engine has to answer before the host is shown silent.
    static let answerWait = Duration.seconds(4)

    /// When the host's link last brought a byte: its jobs are as they were then.
    private(set) var lastHeard: ContinuousClock.Instant
    /// When the engine was asked, the question not answered since; `nil` when not asked.
    private var askedAt: ContinuousClock.Instant?
    /// Whether the host has been said silent and has not answered since.
    private(set) var isSilent = false

    init(heardAt instant: ContinuousClock.Instant) {
        lastHeard = instant
    }

    /// The host's link brought bytes at `instant`; true when the host was silent (it answers
    /// again).
    mutating func heard(at instant: ContinuousClock.Instant) -> Bool {
        lastHeard = instant
        askedAt = nil
        defer { isSilent = false }
        return isSilent
    }

    /// Whether to ask the engine at `instant`: silent for `probeAfter` and not yet asked.
    func probeIsDue(at instant: ContinuousClock.Instant) -> Bool {
        askedAt == nil && instant - lastHeard >= Self.probeAfter
    }

    /// The engine was asked at `instant` (or ssh could not take the question then: a link that
    /// reads nothing for so long is as silent as its engine).
    mutating func asked(at instant: ContinuousClock.Instant) {
        askedAt = instant
    }

    /// True once, at the first `instant` the question has gone unanswered for `answerWait`:
    /// the host is to be shown silent.
    mutating func silenceIsDue(at instant: ContinuousClock.Instant) -> Bool {
        guard !isSilent, let askedAt, instant - askedAt >= Self.answerWait else { return false }
        isSilent = true
        return true
    }

    /// When the next question or judgement is due; `nil` once the host is silent (nothing more
    /// is due until it answers).
    var nextDue: ContinuousClock.Instant? {
        guard !isSilent else { return nil }
        return askedAt.map { $0 + Self.answerWait } ?? lastHeard + Self.probeAfter
    }
}
