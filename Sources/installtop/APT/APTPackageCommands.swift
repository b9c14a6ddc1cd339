import ArgumentParser
import InstallDrivers

/// apt's part in the package commands every kind has (`PackageCommandKind`): `apt install`
/// and `apt remove`, and the run of apt's own `upgrade` and `full-upgrade`.
enum APTPackageCommands: PackageCommandKind {
    static var installHelp: String { "The packages." }
    static var installCompletion: CompletionKind? { CompletionSources.package }
    static var removeCompletion: CompletionKind? { CompletionSources.installedPackage }

    static func install(_ packages: [String]) -> PackageRequest { .install(packages) }
    static func remove(_ packages: [String]) -> PackageRequest { .remove(packages) }

    static func runSession(_ request: PackageRequest, options: APTOptions) -> ExitStatus {
        APTSession(request: request, options: options).run()
    }

    static func armedJob(_ request: PackageRequest, options: APTOptions) -> APTArmedJob {
        APTArmedJob(request: request, options: options)
    }

    static var armableExitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.armable }
}
