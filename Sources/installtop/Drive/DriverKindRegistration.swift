import InstallDrivers
import InstallEngine
import InstallHistory

/// Programs that speak installtop's driver protocol (`EngineHost.registry`): their jobs keep
/// nothing for undo and leave nothing to settle.
struct DriverKindRegistration: KindRegistration {
    var name: String { "driver" }

    func jobKind(keeping: HistoryOptions?, aptConfig: String?) -> any JobKind {
        DriverJobKind()
    }
}
