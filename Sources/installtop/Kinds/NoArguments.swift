import ArgumentParser

/// No arguments and no options: what a package kind's command takes where the kind has nothing
/// of its own to add (`PackageCommandKind.UpgradeArguments`, `UpgradeExtras`).
struct NoArguments: ParsableArguments {}
