/// A patch night as the board shows it (`installtop attach --hosts … --night POLICY`,
/// Documentation/POLICY.md): where the night is, in the header, and each host's step, in the
/// pane of a host with no job (a host being patched shows the night's job itself). Read from
/// the night's stamp on this machine; the board asks no host about it.
public struct BoardNight: Sendable, Hashable {
    /// `wave 2 of 3 · until 05:00 UTC`, `stopped: wave 1 did not pass its gate: …`, `finished`.
    public var headline: String
    /// Each host of the night by name: `confirmed (wave 1)`, `pending (wave 3)`, `failed (wave
    /// 2): its job failed`.
    public var steps: [String: String]

    public init(headline: String, steps: [String: String]) {
        self.headline = headline
        self.steps = steps
    }
}
