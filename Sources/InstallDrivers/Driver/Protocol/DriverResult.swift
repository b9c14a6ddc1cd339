/// An update's result as a driver states it. `skipped` (Ansible's skipped task) counts as
/// succeeded for the WUA result and is shown as skipped.
public enum DriverResult: String, Sendable, Hashable, CaseIterable {
    case succeeded
    case succeededWithErrors
    case failed
    case aborted
    case skipped
}
