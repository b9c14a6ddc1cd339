import ArgumentParser

/// What every `installtop dnf …` command takes beside `run`'s options.
struct DNFOptions: PackageKindOptions {
    @Flag(name: [.short, .long], help: "Run without asking (off a terminal nothing runs without it).")
    var yes = false

    @Option(help: ArgumentHelp("Act on the packages of this root: its configuration, repositories, rpm database, caches and logs, all inside it.", valueName: "dir"))
    var installroot: String?

    @Option(help: ArgumentHelp("$releasever for the root's repositories (with --installroot).", valueName: "version"))
    var releasever: String?

    @OptionGroup var run: RunOptions
}
