/// Where a step of enrolling a host is.
enum EnrollStepState: String, Sendable {
    /// Under way (what it runs).
    case begin
    /// Done and verified.
    case done
    /// Nothing to do: the host had it, verified.
    case already
    /// It failed: the host's words came before.
    case failed
}
