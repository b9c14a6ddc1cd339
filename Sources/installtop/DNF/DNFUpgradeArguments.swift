import ArgumentParser

/// What `installtop dnf upgrade` takes before its options (`PackageUpgradeCommand`): the
/// packages to upgrade; none upgrades every one that has a newer version.
struct DNFUpgradeArguments: ParsableArguments {
    @Argument(help: "The packages; none upgrades every one.")
    var packages: [String] = []
}
