import Foundation
import InstallDrivers

/// What `installtop hooks install --keep-for-undo` delays an observed apt run by (rule 37): a
/// raw `apt-get upgrade -y` of 10 packages (1.0 → 2.0, 5 MiB of installed files each, an
/// unattended-upgrades night's size) in a fresh private root per run, paired in turn: the
/// hooks without the option (the relay alone, no engine listening), with it and apt's cache
/// holding every 1.0 (hard links), and with it and an empty cache (every 1.0 rebuilt). Prints
/// the medians of apt-get's wall time and the difference to the first. Not asserted.
/// `--installtop PATH` names the binary the hooks run (default: beside this one).
enum APTHookKeepingBenchmark {
    static let all: [Benchmark] = [Benchmark(name: "apt-keep-hooks", run: run)]

    private static let count = 10
    private static let megabytes = 5
    private static let runs = 5

    private enum Mode: String, CaseIterable {
        case plain = "hooks without --keep-for-undo"
        case cache = "--keep-for-undo, apt's cache holds 1.0"
        case rebuild = "--keep-for-undo, every 1.0 rebuilt"
    }

    static func run() async {
        let arguments = Array(CommandLine.arguments.dropFirst(2))
        let installtop = arguments.firstIndex(of: "--installtop").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("installtop").path
        let names = (0..<count).map { String(format: "hook-keep-%02d", $0) }
        guard let repository = KeepingBenchmarkLab.repository(names, megabytes: megabytes, prefix: "installtop-bench-hookkeep-repo") else { return }
        defer { repository.remove() }
        print("  \(count) packages of \(megabytes) MiB installed files each, raw apt-get upgrade 1.0 → 2.0, \(runs) runs each, in turn; \(installtop)")
        var walls: [Mode: [Double]] = [:]
        for _ in 0..<runs {
            for mode in Mode.allCases {
                guard let wall = upgrade(names, repository: repository.repository, mode: mode, installtop: installtop) else { return }
                walls[mode, default: []].append(wall)
            }
        }
        let base = median(walls[.plain] ?? [])
        for mode in Mode.allCases {
            let wall = median(walls[mode] ?? [])
            print("  \(mode.rawValue): apt-get \(String(format: "%.3f", wall)) s (\(String(format: "%.3f", wall / base))×, "
                + "+\(String(format: "%.3f", wall - base)) s)")
        }
    }

    /// One raw upgrade in a fresh root with 1.0 installed and the hooks written; apt-get's wall time.
    private static func upgrade(_ names: [String], repository: String, mode: Mode, installtop: String) -> Double? {
        guard let root = KeepingBenchmarkLab.rootAtVersionOne(names, repository: repository, prefix: "installtop-bench-hookkeep", cachingOriginals: mode == .cache) else {
            return nil
        }
        defer { root.remove() }
        let keep = mode == .plain ? [] : ["--keep-for-undo", "--history-db", root.folder + "/state/history.sqlite3"]
        let hooks = SystemCommand.run([installtop, "hooks", "install", "--apt-config", root.configuration,
                                       "--socket", root.folder + "/engine.sock"] + keep)
        guard hooks.status == 0 else {
            print("  hooks install failed: \(hooks.stdout) \(hooks.stderr)")
            return nil
        }
        let started = Date()
        let upgrade = SystemCommand.run([PrivateAPTRoot.aptGet, "-y", "-q", "upgrade"], environment: root.environment)
        let wall = Date().timeIntervalSince(started)
        let upgraded = APTPackageState.query(administrativeDirectory: root.root + "/var/lib/dpkg").values.filter { $0.version == "2.0" }.count
        guard upgrade.status == 0, upgraded == names.count else {
            print("  \(mode.rawValue): apt-get exited \(upgrade.status), \(upgraded) of \(names.count) upgraded: \(upgrade.stderr)")
            return nil
        }
        if mode != .plain, !upgrade.stderr.contains("\(count) of \(count) replaced versions kept for undo") {
            print("  \(mode.rawValue): not everything was kept: \(upgrade.stderr)")
            return nil
        }
        return wall
    }
}
