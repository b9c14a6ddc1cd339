import InstallEngine

/// One update as `job.queued`'s `updates` list and `update.started`'s `added` carry it: `index`,
/// `id`, `title`, `revision`, `reboot`, `impact`, `progress`, `size` and `severity` when known,
/// and `package` for a package job's update (see `PackageChangeCoding`). Commands, environments
/// and working directories stay in the engine.
enum QueuedUpdateCoding {
    /// `update` at position `index` of its job, as a JSON object in UTF-8.
    static func bytes(_ update: Update, index: Int) -> [UInt8] {
        var item = JSONObject()
        item.add("index", index)
        item.add("id", update.id)
        item.add("title", update.title)
        item.add("revision", update.revision)
        item.add("reboot", update.rebootBehavior.name)
        item.add("impact", update.impact.name)
        item.add("progress", update.progressSource.rawValue)
        if let size = update.sizeInBytes { item.add("size", size) }
        if let severity = update.severity { item.add("severity", severity) }
        if let package = update.package { item.addRaw(PackageChangeCoding.key, bytes: PackageChangeCoding.bytes(package)) }
        return item.bytes
    }

    /// The update `item` describes; members it lacks take their defaults.
    /// - Throws: `badArgument` naming the member at fault.
    static func decode(_ item: WireObject) throws(WireError) -> Update {
        Update(
            id: try item.string("id"), revision: try item.optionalInt("revision") ?? 1, title: try item.optionalString("title"),
            rebootBehavior: try item.optionalString("reboot").flatMap(RebootBehavior.named) ?? .never,
            impact: try item.optionalString("impact").flatMap(InstallationImpact.named) ?? .normal,
            progressSource: try item.optionalString("progress").flatMap(ProgressSource.init(rawValue:)) ?? .channel,
            sizeInBytes: try item.optionalInt("size").map(Int64.init), severity: try item.optionalString("severity"),
            package: try PackageChangeCoding.decode(from: item))
    }
}
