#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import PatchPolicy

/// Which of a host's pending upgrades a night takes (Documentation/POLICY.md, "Packages" and
/// "Age"): those the policy's packages select whose new version has been known long enough,
/// by when the host's engine first listed it (`PendingPackage.firstSeen`). Only upgrades of
/// installed packages are taken; a version the engine never dated (an engine without a history)
/// is not taken while an age gate is set, and is named.
struct NightPackageChoice: Equatable {
    /// The packages taken, in the snapshot's order.
    var taken: [String] = []
    /// The packages the age gate holds back, each with when it would be taken.
    var waiting: [AgeDecision] = []
    /// The packages selected whose age is not known (with an age gate only).
    var undated: [String] = []

    /// The choice among `packages` at `now` (seconds since 1970).
    init(_ packages: [PendingPackage], selection: PackageSelection, age: AgeGate, now: Int) {
        for package in packages where package.oldVersion != nil && selection.includes(package.name, isSecurity: package.isSecurity) {
            guard age.isActive else {
                taken.append(package.name)
                continue
            }
            guard let firstSeen = package.firstSeen else {
                undated.append(package.name)
                continue
            }
            let decision = age.decision(package: package.name, firstSeen: Int(firstSeen.timeIntervalSince1970.rounded(.down)),
                                        isSecurity: package.isSecurity, now: now)
            if decision.isTaken { taken.append(package.name) } else { waiting.append(decision) }
        }
    }
}
