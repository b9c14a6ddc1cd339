import ArgumentParser
import InstallDrivers

/// dnf's part in the package commands every kind has (`PackageCommandKind`): `dnf install`,
/// `dnf remove` and `dnf upgrade [PKG…]`.
enum DNFPackageCommands: PackageCommandKind {
    typealias UpgradeArguments = DNFUpgradeArguments

    static var tool: String { "dnf" }

    static var upgradeAbstract: String { "Upgrade the packages named, or every package that has a newer version." }

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

    static func upgrade(_ arguments: DNFUpgradeArguments, options: DNFOptions, confirmation: ConfirmOptions, extras: NoArguments) throws -> ExitStatus {
        try run(.upgrade(arguments.packages), options: options, confirmation: confirmation)
    }

    static var armableExitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.armable }
}
