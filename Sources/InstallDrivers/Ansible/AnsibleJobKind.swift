#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// Fleet runs (Documentation/ANSIBLE.md): `ansible: {playbook: site.yml, …}` in a manifest, the
/// playbook checked with `--list-hosts`, then run with installtop's callback plugin as a
/// session driver whose hosts become jobs. The plugin is written once to a private folder
/// that `removeFiles()` deletes.
public final class AnsibleJobKind: JobKind {
    /// The ansible-playbook to run; `nil` finds it on `PATH`.
    private let executable: String?
    /// The callback plugin's files, written out for the first run.
    private let pluginFolder: ShippedFilesFolder

    public init(executable: String? = nil, pluginFiles: [(name: String, text: String)]) {
        self.executable = executable
        pluginFolder = ShippedFilesFolder("installtop's Ansible callback plugin", prefix: "installtop-ansible",
                                          files: pluginFiles.map { ShippedFilesFolder.File(name: $0.name, text: $0.text) })
    }

    public var key: String { "ansible" }
    public var sectionKeys: [String] { ["playbook", "inventory", "limit", "args"] }
    public var sectionExpectation: String { "an Ansible run ({playbook: site.yml, inventory: hosts.ini, limit: web*, args: [...]})" }
    public var updatesNote: String { "a fleet run's jobs are its hosts" }

    public func operation(of spec: FleetJob) -> UpdateOperation? { nil }
    public func describe(_ spec: FleetJob) -> String { "ansible" }

    public func validationPhrase(count: Int) -> String {
        (count == 1 ? "an Ansible run" : "\(count) Ansible runs") + " (its hosts are jobs of their own)"
    }

    public var declaresJobs: Bool { true }

    public func queuedLine(_ spec: FleetJob, name: String, job: Int?) -> String {
        "fleet run queued: \(name) (its hosts become jobs as it runs)"
    }

    public func plan(_ spec: FleetJob) throws -> KindPlan {
        .session(try driver(for: spec))
    }

    /// Checks the run (the playbook parses, its plays match hosts) and returns its driver.
    /// - Throws: the refusal in Ansible's own words (not found, syntax error, no host).
    public func driver(for spec: FleetJob) throws -> ProtocolSessionDriver {
        let playbook = AnsiblePlaybook(path: try AnsiblePlaybook.find(executable), arguments: spec.commandArguments)
        _ = try playbook.check()
        return playbook.driver(pluginFolder: try pluginFolder.path())
    }

    public func removeFiles() {
        pluginFolder.remove()
    }

    // MARK: - Manifest

    /// `{playbook: site.yml, inventory: hosts.ini, limit: web*, args: [--check]}`: the playbook
    /// must exist (relative paths start at the manifest's folder); `inventory` is one path or a
    /// list, kept as written when no such file exists (a host list such as `web1,`).
    public func read(_ section: inout ManifestKindSection) -> FleetJob? {
        guard let playbook = section.string("playbook", required: true) else { return nil }
        let playbookPath = section.resolved(playbook)
        guard FileManager.default.fileExists(atPath: playbookPath) else {
            section.report("playbook `\(playbookPath)` does not exist", at: "playbook")
            return nil
        }
        let inventories = (section.stringOrList("inventory") ?? []).map {
            FileManager.default.fileExists(atPath: section.resolved($0)) ? section.resolved($0) : $0
        }
        let arguments = section.strings("args") ?? []
        let limit = section.string("limit")
        guard !section.hasErrors else { return nil }
        return FleetJob(playbook: playbookPath, inventories: inventories, limit: limit, arguments: arguments)
    }

    // MARK: - Submission

    /// `{"playbook":…,"inventories":[…],"limit":…,"args":[…]}`.
    public func encode<Writer: KindSpecWriter>(_ spec: FleetJob, into ansible: inout Writer) {
        ansible.add("playbook", spec.playbook)
        ansible.add("inventories", strings: spec.inventories)
        if let limit = spec.limit { ansible.add("limit", limit) }
        ansible.add("args", strings: spec.arguments)
    }

    public func decode<Reader: KindSpecReader>(_ ansible: Reader) throws(Reader.Failure) -> FleetJob {
        FleetJob(playbook: try ansible.string("playbook"), inventories: try ansible.strings("inventories"),
                 limit: try ansible.optionalString("limit"), arguments: try ansible.strings("args"))
    }
}
