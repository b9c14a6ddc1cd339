// swift-tools-version: 6.1
import PackageDescription

// The shipped programs' release link (issue 58: the package in at most 20 MB): lld, so that
// the relative relocations are packed (DT_RELR: 1.3 MB of `.rela.dyn` become 11 kB; glibc 2.36
// and later apply them, also in the static start-up), and no dynamic symbol table of the Swift
// runtime's symbols (`-rdynamic`, 0.9 MB) that nothing looks up. Measured in
// Documentation/BENCHMARKS.md ("installed size"). `--icf=safe` folds identical functions
// whose address nothing takes (the LTO link marks them; an object without that mark keeps all
// of its own). Linking/no-unwind-tables.ld leaves out the 2.6 MB of unwind tables that nothing
// reads (why that is safe: the file). Linking/read-only-data.ld keeps `.rodata`
// read-only, which Swift's writable constants otherwise make writable, so that the idle
// monitor can give back the pages of it that it read (BENCHMARKS.md, "monitor-idle-memory").
let smallReleaseLinking: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--icf=safe",
                  "-Xlinker", "-T", "-Xlinker", Context.packageDirectory + "/Linking/read-only-data.ld",
                  "-Xlinker", "-T", "-Xlinker", Context.packageDirectory + "/Linking/no-unwind-tables.ld", "-Xlinker", "--no-eh-frame-hdr"],
                 .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "installtop",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "installtop", targets: ["installtop"]),
        .executable(name: "installtop-relay", targets: ["installtop-relay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // MARK: - C shims

        // The POSIX calls Swift's Glibc module does not show (pidfd_open, addchdir_np, closefrom).
        .target(name: "CPosixSpawn"),
        // For installtop-bench: the least a runner that keeps Documentation/MANIFESTS-AND-DRIVERS.md's promises to a child can cost.
        .target(name: "CSpawnFloor"),
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libyaml's parser (Debian's libyaml-dev), linked as the shared libyaml-0-2.
        .systemLibrary(
            name: "CYAML",
            path: "Sources/CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),

        // MARK: - YAML

        // Pure: YAML text composed into nodes (tags, styles, marks, anchors resolved) over libyaml,
        // with Yams' errors and messages; no Foundation, so no ICU (Documentation/ARCHITECTURE.md).
        // Its plugin installs libyaml-dev when the build is planned on a machine that lacks it.
        .target(name: "YAMLNodes", dependencies: ["CYAML"], plugins: ["Prerequisites"]),

        // MARK: - Engine

        // Pure reading of /proc and file metadata: installtop's one /proc reader (`ProcFS`: stat,
        // status, cmdline, comm, cgroup, exe, fd, maps), and what still runs deleted or replaced
        // code and whether a reboot is needed (rule 32). Glibc only: the relay links it.
        .target(name: "RestartScan"),
        // Pure text and path helpers in place of Foundation's (trimming, path parts, printf's
        // figures, an error's reason, natural order, local times, civil dates and weekdays),
        // which would link ICU's data.
        .target(name: "TextBasics"),

        .target(
            name: "InstallEngine",
            dependencies: [
                "CPosixSpawn",
                "RestartScan",
                "TextBasics",
                "YAMLNodes",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The scripted fake backend: a real target so tests and benchmarks share it.
        .target(name: "InstallEngineTesting", dependencies: ["InstallEngine"]),
        // The history's SQLite layer over the system's libsqlite3, FoundationEssentials only: GRDB,
        // which it replaced, brought full Foundation and ICU's data into the binary
        // (Documentation/ARCHITECTURE.md, "Why the history has its own SQLite layer").
        // Its plugin installs libsqlite3-dev when the build is planned on a machine that lacks it.
        .target(name: "SQLiteStore", dependencies: ["CSQLite"], plugins: ["Prerequisites"]),
        .target(
            name: "InstallHistory",
            dependencies: [
                "InstallEngine",
                "RestartScan",
                "SQLiteStore",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),

        // Pure: JSON reading and writing, and the daemon's wire protocol (events, commands, replies).
        .target(name: "EngineWire", dependencies: ["InstallEngine", "RestartScan", "TextBasics"]),

        // Pure: Ansible inventories (INI and YAML: groups, children, host variables, ranges) and
        // `--limit` patterns, for the commands that reach many hosts over ssh.
        .target(name: "HostInventory", dependencies: ["TextBasics", "YAMLNodes"]),
        // Patch-night policies (Documentation/POLICY.md), FoundationEssentials only: the file read
        // with the manifests' errors (InstallEngine's), windows in an IANA zone read from the
        // system's zoneinfo (Foundation's TimeZone would bring ICU), waves, the age gate, and the
        // night as a value machine with the stamp file it resumes from.
        .target(name: "PatchPolicy", dependencies: ["HostInventory", "InstallEngine", "TextBasics", "YAMLNodes"]),

        // Unix sockets: bind/connect/accept with the right flags, SO_PEERCRED, send without SIGPIPE.
        .target(name: "CUnixSocket"),
        // The program's and its libraries' never-written pages, released when the monitor idles.
        .target(name: "CResidentCode"),
        // Daemon mode: the engine's socket server and the client `submit`, `attach` … use.
        .target(name: "EngineDaemon", dependencies: ["CUnixSocket", "EngineWire", "InstallEngine", "InstallHistory"]),

        // Drivers: one installer process reporting on many updates (rules 21–27); the protocol first.
        // Ansible/Plugin holds the callback plugin installtop ships and DNF/Helper the dnf helper
        // (both Python), embedded in the installtop executable by EmbedShippedFiles.
        .target(name: "InstallDrivers", dependencies: ["InstallEngine", "EngineWire", "RestartScan"],
                exclude: ["Ansible/Plugin", "DNF/Helper"]),

        // MARK: - Terminal

        // Pure: cells, styles, width, sanitizing, layout and widgets. No curses.
        .target(name: "TerminalUI"),
        // The only importer of CNcursesw: terminal lifecycle, signals, drawing a Buffer, keys.
        // Its plugin installs libncurses-dev (and libsqlite3-dev) when the build is planned on a
        // machine that lacks them.
        .target(name: "CursesTerminal", dependencies: ["CNcursesw", "TerminalUI"], plugins: ["Prerequisites"]),

        // MARK: - Monitor

        // Pure: the monitor's state machine, renderer and themes (Themes/*.yaml embedded at build time);
        // EngineWire for the values hosts send the board (a pending snapshot).
        .target(
            name: "Monitor",
            dependencies: ["InstallEngine", "RestartScan", "TerminalUI", "EngineWire", "YAMLNodes"],
            plugins: ["EmbedThemes"]
        ),
        // Turns files into a Swift file of string literals (run by the EmbedThemes and EmbedShippedFiles plugins).
        .executableTarget(name: "embed-files"),
        .plugin(name: "EmbedThemes", capability: .buildTool(), dependencies: ["embed-files"]),
        .plugin(name: "EmbedShippedFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        // Runs Scripts/install-prerequisites build when a build is planned: the Debian packages the
        // build needs, installed as root (or the apt-get command to run, named, without root).
        .plugin(name: "Prerequisites", capability: .buildTool()),

        // The monitor's runtime: the loop (behind MonitorTerminal, so tests drive it with a fake
        // terminal), its mailbox, and the links to an engine in this process or behind a socket.
        .target(
            name: "MonitorRuntime",
            dependencies: ["Monitor", "TerminalUI", "InstallEngine", "InstallHistory", "EngineWire", "EngineDaemon", "RestartScan", "CResidentCode"]
        ),

        // MARK: - Executables

        .executableTarget(
            name: "installtop",
            dependencies: [
                "InstallEngine",
                "InstallHistory",
                "InstallDrivers",
                "EngineWire",
                "EngineDaemon",
                "HostInventory",
                "PatchPolicy",
                "RestartScan",
                "HookRelay",
                "TerminalUI",
                "CursesTerminal",
                "Monitor",
                "MonitorRuntime",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The demo's manifest and scripts (Examples/demo/), the Ansible callback plugin
            // (Sources/InstallDrivers/Ansible/Plugin/) and the dnf helper
            // (Sources/InstallDrivers/DNF/Helper/) embedded at build time.
            linkerSettings: smallReleaseLinking,
            plugins: ["EmbedShippedFiles"]
        ),
        // What the apt and dpkg hooks run (`installtop hooks install`): Glibc and RestartScan (for
        // its /proc reader; it imports Glibc only), so that it starts in a few milliseconds for
        // every dpkg call. `installtop` runs it when started as `installtop-relay` (the package's
        // link); this program of its own is the same code for a checkout's build and its tests.
        .target(name: "HookRelay", dependencies: ["RestartScan"]),
        .executableTarget(name: "installtop-relay", dependencies: ["HookRelay"],
                          linkerSettings: [.unsafeFlags(["-static-stdlib"])] + smallReleaseLinking),
        // Prints timings; run with `swift run -c release installtop-bench [NAME]`.
        .executableTarget(
            name: "installtop-bench",
            dependencies: [
                "InstallEngine", "InstallEngineTesting", "InstallHistory", "InstallDrivers", "TerminalUI", "Monitor", "EngineWire", "EngineDaemon",
                "CSpawnFloor", "RestartScan", "MonitorRuntime",
            ]
        ),

        // MARK: - Tests

        .testTarget(name: "YAMLNodesTests", dependencies: ["YAMLNodes"]),
        .testTarget(name: "InstallEngineTests", dependencies: ["InstallEngine", "InstallEngineTesting", "RestartScan", "TestProcessSupport"]),
        .testTarget(
            name: "InstallHistoryTests",
            dependencies: ["InstallHistory", "InstallEngine", "SQLiteStore"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
        .testTarget(name: "TextBasicsTests", dependencies: ["TextBasics"]),
        .testTarget(name: "RestartScanTests", dependencies: ["RestartScan", "TestProcessSupport"], exclude: ["Samples"]),
        // The differential test asks the ansible-inventory of FleetTestSupport's toolchain.
        .testTarget(name: "HostInventoryTests", dependencies: ["HostInventory", "FleetTestSupport"]),
        .testTarget(name: "PatchPolicyTests", dependencies: ["PatchPolicy", "HostInventory", "InstallEngine", "TextBasics", "YAMLNodes", "TestProcessSupport"]),
        // The executable's own pure parts (what status prints for many hosts), through @testable import.
        .testTarget(name: "installtopTests", dependencies: ["installtop", "InstallEngine", "InstallEngineTesting", "TestProcessSupport"]),
        .testTarget(name: "EngineWireTests", dependencies: ["EngineWire", "InstallEngine", "InstallEngineTesting", "RestartScan"]),
        // Private apt roots with test packages built offline (Documentation/PACKAGE-FACTS.md), for the apt tests.
        .target(name: "APTTestSupport", dependencies: ["InstallDrivers"], path: "Tests/APTTestSupport"),
        .testTarget(name: "InstallDriversTests", dependencies: ["InstallDrivers", "InstallEngine", "InstallEngineTesting", "EngineWire", "APTTestSupport", "TestProcessSupport"]),
        // CUnixSocket: the stale-socket test binds a socket and leaves it behind.
        .testTarget(
            name: "EngineDaemonTests",
            dependencies: ["EngineDaemon", "EngineWire", "InstallEngine", "InstallEngineTesting", "InstallHistory", "CUnixSocket", "MonitorRuntime", "Monitor",
                           "RestartScan", "FleetTestSupport", "TestProcessSupport"]
        ),
        .testTarget(name: "MonitorRuntimeTests", dependencies: ["MonitorRuntime", "Monitor", "InstallEngine", "InstallHistory", "EngineWire", "EngineDaemon", "TerminalUI", "TestProcessSupport", "APTTestSupport"]),
        .testTarget(
            name: "MonitorTests",
            dependencies: ["Monitor", "InstallEngine", "RestartScan", "TerminalUI", "EngineWire"],
            exclude: ["Snapshots"]
        ),
        // Spawning children with the signals a shell gives them, for the end-to-end tests; processes
        // that map a library copy and a cgroup of the test's own, for the restart scan's tests.
        .target(name: "TestProcessSupport", dependencies: ["TestMachineSetup"], path: "Tests/TestProcessSupport"),
        // Runs Scripts/install-prerequisites test as each test process starts (tmux, sshd, python3,
        // ansible-core in .build/ansible-venv, …): `swift test` alone sets up a fresh machine. And
        // runs the test process's tasks on a pool wider than Swift's one thread per core, which
        // tests that block stalled (TestTaskPool.c). Every test binary links it through
        // TestProcessSupport.
        .target(name: "TestMachineSetup", path: "Tests/TestMachineSetup"),
        // Drive the built `installtop` executable (`swift test` builds it); they import none of
        // installtop's modules.
        .testTarget(name: "EndToEndTests", dependencies: ["TestProcessSupport", "APTTestSupport", "FleetTestSupport", "InstallDrivers"]),
        // Runs the built installtop in tmux, which `.ci/run` installs when it is missing.
        .testTarget(name: "MonitorEndToEndTests", dependencies: ["TestProcessSupport", "APTTestSupport", "FleetTestSupport", "InstallDrivers"]),
        // Test hosts for Ansible in network namespaces, each with its own sshd (Documentation/FLEET-FACTS.md), and
        // the ansible-core that `.ci/run` installs into .build/ansible-venv. Needs root. APTTestSupport
        // for a host's private apt root whose package restarts the host's sshd (SSHDTweakLab).
        .target(name: "FleetTestSupport", dependencies: ["TestProcessSupport", "APTTestSupport"], path: "Tests/FleetTestSupport"),
        .testTarget(name: "FleetHarnessTests", dependencies: ["FleetTestSupport"]),
        // The Ansible collection in Ansible/ (issue 59): its module's pure parts under pytest
        // (Tests/AnsibleModulePytest, not a target), ansible-doc and the example playbook's syntax.
        .testTarget(name: "AnsibleCollectionTests", dependencies: ["FleetTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// Each file sees the members of the modules it imports itself (SE-0444). Without it a file that
// imports FoundationEssentials still gets Foundation's `contains` or `trimmingCharacters` through
// another file's import, and Foundation's would link ICU's 34 MB of data into the binary
// (Documentation/ARCHITECTURE.md "What the binary links"). The shipped targets only: the
// benchmarks and the build tool may use Foundation.
for target in package.targets where [.regular, .executable].contains(target.type) && !(target.path ?? "").hasPrefix("Tests")
    && !["installtop-bench", "embed-files", "InstallEngineTesting"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}

// Release builds optimize the shipped code for size (issue 58: the package in at most 20 MB),
// the engine's and the history's too: their cost per update and per line was the same with
// -O, paired on a quiet machine (`queue-spawn-overhead` in Documentation/BENCHMARKS.md).
for target in package.targets where [.regular, .executable].contains(target.type) && !(target.path ?? "").hasPrefix("Tests")
    && !["installtop-bench", "embed-files", "InstallEngineTesting"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Osize"], .when(configuration: .release))]
}
