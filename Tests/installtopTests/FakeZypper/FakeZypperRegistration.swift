import InstallEngine
import InstallHistory
@testable import installtop

/// The test-double zypper kind as installtop registers it (`KindRegistration`): its name and its
/// job kind; it keeps nothing for undo, so its runs are refused an undo and left unsettled by
/// the protocol's defaults.
struct FakeZypperRegistration: KindRegistration {
    var name: String { "zypper" }

    func jobKind(keeping: HistoryOptions?, aptConfig: String?) -> any JobKind {
        FakeZypperJobKind()
    }
}
