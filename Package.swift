// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "installtop",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "installtop", targets: ["installtop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // The POSIX calls Swift's Glibc module does not show (pidfd_open, addchdir_np, closefrom).
        .target(name: "CPosixSpawn"),
        .target(
            name: "InstallEngine",
            dependencies: [
                "CPosixSpawn",
                .product(name: "Yams", package: "Yams"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The scripted fake backend: a real target so tests and benchmarks share it.
        .target(name: "InstallEngineTesting", dependencies: ["InstallEngine"]),
        .executableTarget(
            name: "installtop",
            dependencies: [
                "InstallEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Pure terminal drawing: cells, styles, widths, layout and widgets. No curses, no I/O.
        .target(name: "TerminalUI"),
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        // The only importer of CNcursesw: terminal lifecycle, signals, drawing a Buffer, keys.
        .target(name: "CursesTerminal", dependencies: ["CNcursesw", "TerminalUI"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
        .testTarget(
            name: "InstallEngineTests",
            dependencies: ["InstallEngine", "InstallEngineTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
