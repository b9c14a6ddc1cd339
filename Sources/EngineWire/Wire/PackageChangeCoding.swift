import InstallEngine

/// An update's `PackageChange` as the `"package"` member of an update, the same in `job.queued`
/// events and in `submit`'s updates:
/// `{"name":"openssl","action":"upgrade","oldVersion":"3.0.14","newVersion":"3.0.15","architecture":"amd64"}`.
///
/// Members that are `nil` are left out rather than written as `null`, like the update's own
/// optional members (`size`, `severity`); `"essential":true` is written only for an Essential
/// package, and a missing `essential` reads as `false` (what older versions wrote).
public enum PackageChangeCoding {
    /// The member's key in an update object.
    public static let key = "package"

    /// The change as a JSON object in UTF-8.
    public static func bytes(_ change: PackageChange) -> [UInt8] {
        var object = JSONObject()
        object.add("name", change.package)
        object.add("action", change.action.rawValue)
        if let oldVersion = change.oldVersion { object.add("oldVersion", oldVersion) }
        if let newVersion = change.newVersion { object.add("newVersion", newVersion) }
        if let architecture = change.architecture { object.add("architecture", architecture) }
        if change.essential { object.add("essential", true) }
        return object.bytes
    }

    /// The `"package"` member of `update`; `nil` when it is missing or null (every update that is
    /// not a package's).
    /// - Throws: `badArgument` naming the member when it is not an object, lacks `name` or
    ///   `action`, names an action this version does not know, or has an `essential` that is
    ///   not a boolean.
    public static func decode(from update: WireObject) throws(WireError) -> PackageChange? {
        guard let value = update.members[key], !value.isNull else { return nil }
        guard let members = value.objectValue else {
            throw WireError(.badArgument, "\(update.context): `\(key)` must be an object")
        }
        let object = WireObject(members, context: "\(update.context).\(key)")
        let actions = PackageChange.Action.allCases.map(\.rawValue).joined(separator: ", ")
        return PackageChange(
            package: try object.string("name"),
            action: try object.name("action", PackageChange.Action.init(rawValue:), expected: "one of \(actions)"),
            oldVersion: try object.optionalString("oldVersion"),
            newVersion: try object.optionalString("newVersion"),
            architecture: try object.optionalString("architecture"),
            essential: try object.bool("essential", default: false))
    }
}
