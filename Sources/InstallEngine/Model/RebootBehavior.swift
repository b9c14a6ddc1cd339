/// A prediction of whether an update needs a reboot (WUA `InstallationRebootBehavior`).
/// It is not a result: the result's `rebootRequired` is a fact (rule 17).
public enum RebootBehavior: Int, Sendable, Hashable, CaseIterable {
    /// irbNeverReboots
    case never = 0
    /// irbAlwaysRequiresReboot: a successful install always requires a reboot.
    case always = 1
    /// irbCanRequestReboot: the update may ask for one (progress channel or marker file).
    case may = 2

    /// The word used in manifests.
    public var name: String {
        switch self {
        case .never: return "never"
        case .always: return "always"
        case .may: return "may"
        }
    }
}
