#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One item of a job: what to run and how to present it.
///
/// Identity is `id` + `revision`; `id` is unique inside a manifest. Everything else is
/// either for the backend (commands, working directory, environment, limits) or for display.
public struct Update: Sendable, Hashable, Identifiable {
    public var id: String
    public var revision: Int
    /// Any Unicode; consumers sanitize it before display.
    public var title: String
    public var installCommand: UpdateCommand?
    /// Required only when the update is part of an uninstall job.
    public var uninstallCommand: UpdateCommand?
    public var rebootBehavior: RebootBehavior
    public var impact: InstallationImpact
    public var progressSource: ProgressSource
    /// Past this the update is killed and fails with `installerHung`; `nil` means no limit.
    public var timeout: Duration?
    /// How long an aborted update gets between SIGTERM and SIGKILL (rule 11).
    public var abortGrace: Duration
    /// Absolute working directory of the child; `nil` inherits installtop's.
    public var workingDirectory: String?
    /// Added to the parent's environment.
    public var environment: [String: String]
    public var sizeInBytes: Int64?
    public var severity: String?
    public var description: String?
    public var categories: [String]
    /// For an update of a package job: the package and its old and new versions (shown, sent in
    /// JSON events and kept in the history); `nil` for every other update.
    public var package: PackageChange?

    public init(
        id: String,
        revision: Int = 1,
        title: String? = nil,
        installCommand: UpdateCommand? = nil,
        uninstallCommand: UpdateCommand? = nil,
        rebootBehavior: RebootBehavior = .never,
        impact: InstallationImpact = .normal,
        progressSource: ProgressSource = .channel,
        timeout: Duration? = nil,
        abortGrace: Duration = .seconds(10),
        workingDirectory: String? = nil,
        environment: [String: String] = [:],
        sizeInBytes: Int64? = nil,
        severity: String? = nil,
        description: String? = nil,
        categories: [String] = [],
        package: PackageChange? = nil
    ) {
        self.id = id
        self.revision = revision
        self.title = title ?? id
        self.installCommand = installCommand
        self.uninstallCommand = uninstallCommand
        self.rebootBehavior = rebootBehavior
        self.impact = impact
        self.progressSource = progressSource
        self.timeout = timeout
        self.abortGrace = abortGrace
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.sizeInBytes = sizeInBytes
        self.severity = severity
        self.description = description
        self.categories = categories
        self.package = package
    }

    /// The command for `operation`, or `nil` when the update has none.
    public func command(for operation: UpdateOperation) -> UpdateCommand? {
        switch operation {
        case .install: return installCommand
        case .uninstall: return uninstallCommand
        }
    }
}
