#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallHistory

/// What dpkg has half-way in a database, read for the history's job runs (`HistoryStore.jobRuns`,
/// through `APTKindRegistration.halfWayPackages`), whose undoability follows dpkg's state: the
/// history cannot read dpkg itself.
enum HalfWayLookup {
    /// The packages dpkg has half-way in `administrativeDirectory` (`APTPackageState.isHalfWay`),
    /// by name; empty when dpkg-query cannot run there.
    static func packages(administrativeDirectory: String) -> [String: HalfWayPackage] {
        let halfWay = APTPackageState.query(administrativeDirectory: administrativeDirectory).filter(\.value.isHalfWay)
        guard !halfWay.isEmpty else { return [:] }
        let interrupted = journalIsOpen(administrativeDirectory)
        return halfWay.mapValues { state in
            HalfWayPackage(version: state.version, words: state.description, needsRepair: interrupted || !state.finishesWithConfigure)
        }
    }

    /// Whether dpkg's journal (`updates/`, files named by number) holds entries: dpkg was cut
    /// off, and apt refuses to plan ("dpkg was interrupted") until `dpkg --configure -a`.
    static func journalIsOpen(_ administrativeDirectory: String) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: administrativeDirectory + "/updates")) ?? []
        return names.contains { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
