import ArgumentParser

/// What every `installtop apt …` command takes beside `run`'s options.
struct APTOptions: PackageKindOptions {
    @Flag(name: [.short, .long], help: "Run without asking: apt resolves once, its own hook gives the plan (off a terminal nothing runs without it).")
    var yes = false

    @Option(help: ArgumentHelp("apt's configuration file, as APT_CONFIG (default: $APT_CONFIG, else the system's); it may move apt and dpkg into another root.", valueName: "file"))
    var aptConfig: String?

    @Option(help: ArgumentHelp("Run apt and dpkg inside this folder through chroot (an image or a container's root); --apt-config is then read inside it.", valueName: "dir"))
    var chroot: String?

    @OptionGroup var run: RunOptions
}
