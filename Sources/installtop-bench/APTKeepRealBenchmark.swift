import Foundation
import Glibc
import InstallDrivers

/// What keeping for undo costs a real upgrade, and what an undo costs against putting the old
/// versions back by hand (issue 35), in a debootstrap chroot whose packages are older than its
/// archive offers (`installtop-bench apt-keep-real --chroot DIR [--rounds N] [--installtop PATH]`).
/// Each round, from the old versions: `apt-get upgrade -y`, `installtop apt upgrade --yes
/// --no-history` (nothing kept) and `installtop apt upgrade --yes` with a history (every replaced
/// version kept: from apt's cache when it holds it, else rebuilt); between them the old versions
/// go back, by hand (`apt-get install --allow-downgrades` of the kept .debs) after the first two
/// and by `installtop apt undo RUN --yes` after the third, both timed. Medians and paired ratios
/// are printed, not asserted. The chroot must have `usr/sbin/policy-rc.d` exiting 101 and its
/// upgrades in apt's cache (one `apt-get upgrade --download-only` before).
enum APTKeepRealBenchmark {
    static let all = [Benchmark(name: "apt-keep-real", run: run)]

    static func run() async {
        let arguments = CommandLine.arguments
        func value(_ option: String) -> String? {
            arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        guard let chroot = value("--chroot").map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) else {
            return print("  skipped: needs --chroot DIR (a debootstrap chroot with upgrades pending)")
        }
        let rounds = value("--rounds").flatMap(Int.init) ?? 5
        let installtop = value("--installtop")
            ?? URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("installtop").path
        guard getuid() == 0 else { return print("  skipped: chroot needs root") }
        guard FileManager.default.isExecutableFile(atPath: chroot + "/usr/sbin/policy-rc.d") else {
            return print("  skipped: \(chroot)/usr/sbin/policy-rc.d is missing: services would start in the chroot")
        }
        guard FileManager.default.isExecutableFile(atPath: installtop) else { return print("  skipped: no installtop at \(installtop)") }
        let folder = NSTemporaryDirectory() + "installtop-bench-keep-real-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let history = folder + "/history.sqlite3"
        let byHand = folder + "/old"
        let inChroot = "/var/cache/installtop-bench-old"
        defer { try? FileManager.default.removeItem(atPath: chroot + inChroot) }
        func inside(_ command: [String]) -> [String] { ["/usr/sbin/chroot", chroot] + command }
        func timed(_ command: [String]) -> Double? {
            let clock = ContinuousClock()
            var result: SystemCommand?
            let took = clock.measure { result = SystemCommand.run(command) }
            guard let result, result.status == 0 else {
                print("  \(command.joined(separator: " ")) failed (\(result?.status ?? -1)): \(result?.stderr.suffix(400) ?? "")")
                return nil
            }
            return Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        }
        let pending = SystemCommand.run(inside(["/usr/bin/apt-get", "-s", "upgrade"])).stdout.split(separator: "\n").filter { $0.hasPrefix("Inst ") }
        guard !pending.isEmpty else { return print("  skipped: nothing to upgrade in \(chroot)") }
        print("  chroot \(chroot): \(pending.count) packages to upgrade; \(rounds) rounds; load \(loadAverage())")
        // The old versions as .debs, once: a first kept upgrade, its kept files copied, undone.
        guard timed([installtop, "apt", "upgrade", "--chroot", chroot, "--yes", "--json", "--history-db", history]) != nil,
              let first = newestRun(installtop, history: history) else { return }
        do {
            try FileManager.default.createDirectory(atPath: byHand, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: chroot + inChroot, withIntermediateDirectories: true)
            for deb in try FileManager.default.contentsOfDirectory(atPath: folder + "/undo/\(first)") where deb.hasSuffix(".deb") {
                try FileManager.default.copyItem(atPath: folder + "/undo/\(first)/" + deb, toPath: chroot + inChroot + "/" + deb)
            }
        } catch {
            return print("  cannot copy the kept versions: \(error)")
        }
        let oldDebs = ((try? FileManager.default.contentsOfDirectory(atPath: chroot + inChroot)) ?? []).sorted().map { inChroot + "/" + $0 }
        guard timed([installtop, "apt", "undo", String(first), "--chroot", chroot, "--yes", "--json", "--history-db", history]) != nil else { return }
        let putBackByHand = inside(["/usr/bin/apt-get", "install", "-y", "--allow-downgrades"] + oldDebs)
        var aptGet: [Double] = [], plain: [Double] = [], keeping: [Double] = [], handUndo: [Double] = [], undo: [Double] = []
        for _ in 0..<rounds {
            guard let a = timed(inside(["/usr/bin/apt-get", "upgrade", "-y"])), let h1 = timed(putBackByHand),
                  let p = timed([installtop, "apt", "upgrade", "--chroot", chroot, "--yes", "--json", "--no-history"]), let h2 = timed(putBackByHand),
                  let k = timed([installtop, "apt", "upgrade", "--chroot", chroot, "--yes", "--json", "--history-db", history]),
                  let run = newestRun(installtop, history: history),
                  let u = timed([installtop, "apt", "undo", String(run), "--chroot", chroot, "--yes", "--json", "--history-db", history])
            else { return }
            aptGet.append(a); plain.append(p); keeping.append(k); handUndo += [h1, h2]; undo.append(u)
        }
        func line(_ name: String, _ values: [Double], against base: [Double]? = nil, baseName: String = "") -> String {
            var text = "  " + name.padding(toLength: 58, withPad: " ", startingAt: 0)
                + String(format: " median %6.2f s  range %.2f–%.2f s", median(values), values.min() ?? 0, values.max() ?? 0)
            if let base {
                let ratios = zip(values, base).map { $0 / $1 }
                text += String(format: "  %.2f× %@ (%.2f–%.2f)", median(ratios), baseName, ratios.min() ?? 0, ratios.max() ?? 0)
            }
            return text
        }
        print(line("apt-get upgrade -y", aptGet))
        print(line("installtop apt upgrade --yes --no-history (keeps nothing)", plain, against: aptGet, baseName: "apt-get"))
        print(line("installtop apt upgrade --yes (keeps every old version)", keeping, against: aptGet, baseName: "apt-get"))
        print(line("  the same against --no-history, paired by round", keeping, against: plain, baseName: "no keeping"))
        print(line("apt-get install --allow-downgrades of the old .debs (by hand)", handUndo))
        print(line("installtop apt undo RUN --yes", undo, against: Array(handUndo.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)),
                   baseName: "by hand"))
        print("  load after: \(loadAverage())")
    }

    /// The newest run id of the history at `history`.
    private static func newestRun(_ installtop: String, history: String) -> Int? {
        let listed = SystemCommand.run([installtop, "history", "--jobs", "--json", "--history-db", history])
        guard let line = listed.stdout.split(separator: "\n").first,
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let run = (object["run"] as? NSNumber)?.intValue
        else {
            print("  history --jobs gave no run: \(listed.stdout)\(listed.stderr)")
            return nil
        }
        return run
    }
}
