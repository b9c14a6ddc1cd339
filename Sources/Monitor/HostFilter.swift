/// Which hosts the grouped board lists (`F` steps through them): every host, or those in one
/// state of their pending snapshot, their jobs or their link. The selected host is listed
/// whatever the filter, so that keys never act on a host the operator cannot see.
public enum HostFilter: Sendable, Hashable, CaseIterable {
    case all
    /// The pending snapshot says nothing to upgrade, nothing held back, nothing wrong.
    case upToDate
    /// The pending snapshot lists packages to upgrade.
    case pending
    /// The pending snapshot lists security updates.
    case securityPending
    /// A reboot is needed: a newer kernel or the restart advice of the snapshot or of a job.
    case reboot
    /// The host's current job (what its row shows) completed failed, or dpkg left packages
    /// half-way there.
    case failed
    /// Its link failed or its engine does not answer.
    case unreachable

    /// How the header says it: `showing security pending`.
    public var title: String {
        switch self {
        case .all: return "all"
        case .upToDate: return "up to date"
        case .pending: return "pending"
        case .securityPending: return "security pending"
        case .reboot: return "reboot"
        case .failed: return "failed"
        case .unreachable: return "unreachable"
        }
    }

    /// The filter after this one, back to `all` after the last.
    public var next: HostFilter {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
