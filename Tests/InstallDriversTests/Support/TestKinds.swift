import EngineWire
import InstallDrivers
import InstallEngine

/// The kinds the tests of manifests and submissions read jobs of, as `EngineHost.kinds`
/// registers them (Ansible's without its plugin files, which no test here runs).
let testKinds = JobKinds([APTJobKind(), AnsibleJobKind(pluginFiles: [])])

/// What a manifest job or a submission of the apt kind asks apt for.
extension ManifestJob {
    var package: PackageJob? { kind?.spec(as: PackageJob.self) }
}

extension JobSubmission {
    /// A job of the apt kind.
    init(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool, package: PackageJob) {
        self.init(name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure,
                  kind: JobKindSpec(kind: APTJobKind(), spec: package))
    }

    var package: PackageJob? { kind?.spec(as: PackageJob.self) }
}
