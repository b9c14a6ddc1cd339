#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallHistory

/// Dates a pending snapshot's packages by when the engine first listed each new version, from
/// the history's record (`HistoryStore.firstSeen`), so that the age survives restarts of the
/// engine; what a patch night's age gate reads (Documentation/POLICY.md, "Age").
public enum PendingAge {
    /// `snapshot`'s packages, each with its `firstSeen`. A snapshot with a problem forgets
    /// nothing (its list may be incomplete); a history that cannot be written leaves the
    /// packages undated, said through `log`, rather than dated wrongly.
    public static func dated(_ snapshot: PendingSnapshot, in store: HistoryStore, now: Date,
                             log: (String) -> Void) -> [PendingPackage] {
        let versions = snapshot.packages.map { PendingVersion(package: $0.name, version: $0.newVersion) }
        let seen: [PendingVersion: Date]
        do {
            seen = try store.firstSeen(versions, now: now, forgettingOthers: snapshot.problem == nil)
        } catch {
            log("the pending versions are not dated (no age for a night's age gate): \(error)")
            return snapshot.packages
        }
        return zip(snapshot.packages, versions).map { package, version in
            var dated = package
            dated.firstSeen = seen[version]
            return dated
        }
    }
}
