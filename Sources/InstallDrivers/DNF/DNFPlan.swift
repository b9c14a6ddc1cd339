import InstallEngine

/// What a dnf job will do, fixed before anything runs (rule 22): every package of dnf's
/// resolution, in rpm's order. Its `updates` are the job's.
public struct DNFPlan: Sendable, Hashable {
    public var job: DNFJob
    public var items: [DNFPlanItem]
    /// The bytes dnf will fetch (what is here already left out).
    public var downloadSize: Int64

    public init(job: DNFJob, items: [DNFPlanItem], downloadSize: Int64) {
        self.job = job
        self.items = items
        self.downloadSize = downloadSize
    }

    /// Nothing to install, upgrade or remove.
    public var isEmpty: Bool { items.isEmpty }

    /// The job's updates: one per package, titled with its versions, sized from its download.
    /// The id is the package's name, as the history and `history --update` name packages, or
    /// `name.arch` when the plan holds the name for two architectures (multilib). A package
    /// dnf's reboot rule names requires a reboot (rule 26 gives the verdict; `may` until then).
    public var updates: [Update] {
        items.map { item in
            Update(id: updateID(of: item), title: item.title, rebootBehavior: .may, sizeInBytes: item.size,
                   description: item.action.rawValue, package: item.change)
        }
    }

    /// The id of `item`'s update: its name, or `name.arch` when another item has the name.
    public func updateID(of item: DNFPlanItem) -> String {
        items.count(where: { $0.name == item.name }) > 1 ? item.nameArch : item.name
    }

    /// How the plan reads before it runs: `2 to install, 1 to upgrade · 42 kB to download`.
    public var summary: String {
        let counts: [(String, Int)] = [
            ("to install", items.count(where: { $0.action == .install })),
            ("to upgrade", items.count(where: { $0.action == .upgrade })),
            ("to downgrade", items.count(where: { $0.action == .downgrade })),
            ("to reinstall", items.count(where: { $0.action == .reinstall })),
            ("to remove", items.count(where: { $0.action == .remove })),
            ("obsoleted", items.count(where: { $0.action == .obsoleted })),
        ]
        var text = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        if text.isEmpty { text = "nothing to do" }
        if downloadSize > 0 { text += " · \(ByteCountText.text(downloadSize)) to download" }
        return text
    }
}
