import ArgumentParser
import InstallDrivers

/// dnf's part in the package commands every kind has (`PackageCommandKind`): `dnf install`
/// and `dnf remove`, and the run of dnf's own `upgrade`.
enum DNFPackageCommands: PackageCommandKind {
    static var installHelp: String { "The packages (a name, or name-version to pick one)." }
    static var installCompletion: CompletionKind? { nil }
    static var removeCompletion: CompletionKind? { nil }

    static func install(_ packages: [String]) -> DNFRequest { .install(packages) }
    static func remove(_ packages: [String]) -> DNFRequest { .remove(packages) }

    static func runSession(_ request: DNFRequest, options: DNFOptions) -> ExitStatus {
        DNFSession(request: request, options: options).run()
    }

    static func armedJob(_ request: DNFRequest, options: DNFOptions) -> DNFArmedJob {
        DNFArmedJob(request: request, options: options)
    }

    static var armableExitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.armable }
}
