#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON of a pending snapshot, as `installtop pending --json` prints it and the engine's
/// `pending` reply carries it under `snapshot`:
///
/// `{"computedAt":"2026-12-01T10:00:00Z","problem":null,"pending":2,"security":1,"packages":[{"name":"openssl","oldVersion":"3.0.14","newVersion":"3.0.15","origin":"Debian-Security:12/stable-security","architecture":"amd64","security":true,"firstSeen":"2026-11-30T02:00:00.000Z"}],"heldBack":[{"name":"nginx","installedVersion":"1.22","availableVersion":"1.24","reason":"would-remove","packages":["nginx-light"],"phasedPercentage":null}],"notFullyInstalled":["lab-a: half-configured at 2.0 (iF)"],"finishCommand":"dpkg --configure -a","listsUpdatedAt":"2026-11-25T08:00:00Z","waitingKernel":"6.1.0-28-amd64","restarts":{…}}`
///
/// `pending`, `security` and `waitingKernel` are derived (not read back); a package's
/// `firstSeen` is `null` from an engine without a history (and absent from an older one); `restarts` is the
/// restart advice as `installtop restarts --json` prints it, `null` with a problem.
public enum PendingSnapshotCoding {
    public static func encode(_ snapshot: PendingSnapshot) -> String {
        var object = JSONObject()
        object.add("computedAt", date: snapshot.computedAt)
        object.add("problem", orNull: snapshot.problem)
        object.add("pending", snapshot.packages.count)
        object.add("security", snapshot.securityCount)
        object.addRaw("packages", "[" + snapshot.packages.map(package).joined(separator: ",") + "]")
        object.addRaw("heldBack", "[" + snapshot.heldBack.map(heldBack).joined(separator: ",") + "]")
        object.add("notFullyInstalled", strings: snapshot.notFullyInstalled)
        object.add("finishCommand", orNull: snapshot.finishCommand)
        object.add("listsUpdatedAt", orNullDate: snapshot.listsUpdatedAt)
        object.add("waitingKernel", orNull: snapshot.waitingKernel)
        if let restarts = snapshot.restarts { object.addRaw("restarts", RestartAdviceCoding.encode(restarts)) } else { object.addNull("restarts") }
        return object.json
    }

    /// Reads what `encode` wrote. A held-back reason this version does not know reads as
    /// `kept-back`, so an older client still counts the package.
    /// - Throws: `badArgument` naming the member that is missing or of the wrong type.
    public static func decode(_ object: WireObject) throws(WireError) -> PendingSnapshot {
        guard let computedAt = RFC3339.date(from: try object.string("computedAt")) else {
            throw WireError(.badArgument, "\(object.context): `computedAt` must be an RFC 3339 time")
        }
        var snapshot = PendingSnapshot(computedAt: computedAt, problem: try object.optionalString("problem"))
        for package in try object.objects("packages") {
            snapshot.packages.append(PendingPackage(
                name: try package.string("name"), oldVersion: try package.optionalString("oldVersion"), newVersion: try package.string("newVersion"),
                origin: try package.string("origin"), architecture: try package.optionalString("architecture"),
                firstSeen: try package.optionalString("firstSeen").flatMap(RFC3339.date(from:))))
        }
        for held in try object.objects("heldBack") {
            snapshot.heldBack.append(HeldBackPackage(
                name: try held.string("name"), installedVersion: try held.string("installedVersion"),
                availableVersion: try held.string("availableVersion"), reason: try reason(of: held)))
        }
        // An engine older than the member sends none: nothing known half-way.
        snapshot.notFullyInstalled = (object.members["notFullyInstalled"]?.arrayValue ?? []).compactMap(\.stringValue)
        snapshot.finishCommand = object.members["finishCommand"]?.stringValue
        snapshot.listsUpdatedAt = try object.optionalString("listsUpdatedAt").flatMap(RFC3339.date(from:))
        if let restarts = object.members["restarts"]?.objectValue {
            snapshot.restarts = try RestartAdviceCoding.decode(WireObject(restarts, context: object.context + ".restarts"))
        }
        return snapshot
    }

    private static func package(_ package: PendingPackage) -> String {
        var object = JSONObject()
        object.add("name", package.name)
        object.add("oldVersion", orNull: package.oldVersion)
        object.add("newVersion", package.newVersion)
        object.add("origin", package.origin)
        object.add("architecture", orNull: package.architecture)
        object.add("security", package.isSecurity)
        object.add("firstSeen", orNullDate: package.firstSeen)
        return object.json
    }

    private static func heldBack(_ package: HeldBackPackage) -> String {
        var object = JSONObject()
        object.add("name", package.name)
        object.add("installedVersion", package.installedVersion)
        object.add("availableVersion", package.availableVersion)
        object.add("reason", package.reason.name)
        object.add("packages", strings: package.reason.packages)
        if case .phased(let percentage?) = package.reason { object.add("phasedPercentage", percentage) } else { object.addNull("phasedPercentage") }
        return object.json
    }

    private static func reason(of held: WireObject) throws(WireError) -> HeldBackReason {
        switch try held.string("reason") {
        case "held": return .held
        case "pinned": return .pinned
        case "phased": return .phased(percentage: try held.optionalInt("phasedPercentage"))
        case "would-remove": return .wouldRemove(try held.strings("packages"))
        case "needs-new-packages": return .needsNewPackages(try held.strings("packages"))
        default: return .keptBack
        }
    }
}
