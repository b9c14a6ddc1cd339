import Foundation
import Glibc
import InstallDrivers

/// What keeping for undo costs a dnf upgrade (issue 46), printed, never asserted. Usage:
/// `installtop-bench dnf-keep [--rounds N] [--installtop PATH]` (default 5 rounds after an
/// uncounted warm-up). Each run upgrades the 50 lab packages of `dnf-real` from 1.0 to 2.0 in a
/// fresh root where 1.0 was installed beforehand (outside the time): `dnf -y upgrade` for
/// reference, `installtop dnf upgrade --yes --no-history` (nothing kept), then with a history:
/// while the repository still holds 1.0 (each kept from there: a local repository is dnf's
/// cache) and after it dropped 1.0 (each rebuilt from the installed files with rpmbuild). The
/// order reverses every round. After every run the root must hold exactly the 50 at 2.0-1, and
/// a keeping run's history 50 kept versions of the source it names. Needs what `dnf-real`
/// needs; the lab is deleted at the end.
enum DNFKeepBenchmark {
    static let all = [Benchmark(name: "dnf-keep", run: run)]

    private struct Contender {
        var name: String
        /// The repository the root reads during the upgrade.
        var repository: String
        var arguments: (_ root: String, _ history: String) -> [String]
        /// The source every kept version must have; nil when nothing is kept.
        var source: String?
    }

    static func run() async {
        guard let (rounds, installtop) = DNFRealBenchmark.setting() else { return }
        let old: PrivateDNFRoot, new: PrivateDNFRoot
        do {
            old = try PrivateDNFRoot(temporaryWithPrefix: "itop-bench-keep-old")
            new = try PrivateDNFRoot(temporaryWithPrefix: "itop-bench-keep-new")
        } catch {
            return print("  skipped: \(error)")
        }
        defer {
            old.remove()
            new.remove()
        }
        let first = DNFRealBenchmark.labPackages()
        let second = first.map { recipe in
            var next = recipe
            next.version = "2.0"
            return next
        }
        // Both versions: the 1.0 rpms beside the 2.0 ones, indexed again.
        let both = new.folder + "/both"
        do {
            try old.publish(first)
            try new.publish(second)
            try FileManager.default.createDirectory(atPath: both, withIntermediateDirectories: true)
            for repository in [old.repository, new.repository] {
                for file in try FileManager.default.contentsOfDirectory(atPath: repository) where file.hasSuffix(".rpm") {
                    try FileManager.default.copyItem(atPath: repository + "/" + file, toPath: both + "/" + file)
                }
            }
            guard SystemCommand.run(["/usr/bin/createrepo_c", "-q", both]).status == 0 else { return print("  createrepo_c failed on \(both)") }
        } catch {
            return print("  the lab could not be built: \(error)")
        }
        let names = first.map(\.name)
        let upgrade = { (root: String) in ["--installroot", root, "--releasever", old.releaseVersion, "--yes"] }
        guard let environment = DNFRealBenchmark.privateHome(in: old) else { return }
        let contenders = [
            Contender(name: "dnf -y upgrade", repository: both, arguments: { root, _ in
                environment + DNFRealBenchmark.dnfCommand(in: root, releaseVersion: old.releaseVersion, answer: "-y", request: ["upgrade"])
            }),
            Contender(name: "installtop dnf upgrade --yes --no-history", repository: both, arguments: { root, _ in
                environment + [installtop, "dnf", "upgrade"] + upgrade(root) + ["--no-history"]
            }),
            Contender(name: "installtop dnf upgrade --yes, 1.0 kept from the repository", repository: both, arguments: { root, history in
                environment + [installtop, "dnf", "upgrade"] + upgrade(root) + ["--history-db", history]
            }, source: "cache"),
            Contender(name: "installtop dnf upgrade --yes, 1.0 rebuilt (dropped)", repository: new.repository, arguments: { root, history in
                environment + [installtop, "dnf", "upgrade"] + upgrade(root) + ["--history-db", history]
            }, source: "rebuilt"),
        ]
        print("  \(names.count) packages 1.0 → 2.0 a run, \(rounds) rounds after a warm-up, a fresh root a run; load \(loadAverage())")
        var walls = Array(repeating: [Double](), count: contenders.count)
        var run = 0
        for round in 0...rounds {
            var times = [Double](repeating: 0, count: contenders.count)
            for index in round % 2 == 1 ? Array(contenders.indices) : contenders.indices.reversed() {
                run += 1
                guard let wall = time(contenders[index], run: run, old: old, names: names, installtop: installtop) else { return }
                times[index] = wall
            }
            guard round > 0 else { continue }
            for index in contenders.indices { walls[index].append(times[index]) }
            print("  round \(round): " + zip(contenders, times).map { String(format: "%@ %.2f s", $0.name, $1) }.joined(separator: ", "))
        }
        for (index, contender) in contenders.enumerated() {
            print("  " + contender.name.padding(toLength: 60, withPad: " ", startingAt: 0)
                + String(format: " median %6.3f s  range %.3f–%.3f s", median(walls[index]), walls[index].min() ?? 0, walls[index].max() ?? 0))
        }
        func perPackage(_ index: Int) -> Double {
            median(zip(walls[index], walls[1]).map { $0 - $1 }) / Double(names.count) * 1000
        }
        print(String(format: "  keeping's cost a package (medians of paired differences against --no-history): from the repository %.1f ms, rebuilt %.1f ms",
                     perPackage(2), perPackage(3)))
        print(String(format: "  installtop --no-history ÷ dnf -y: %.2f×; kept from the repository ÷ dnf -y: %.2f×; rebuilt ÷ dnf -y: %.2f×",
                     median(walls[1]) / median(walls[0]), median(walls[2]) / median(walls[0]), median(walls[3]) / median(walls[0])))
        print("  load after: \(loadAverage())")
    }

    /// A fresh root with the 50 at 1.0 (installed outside the time from `old`'s repository),
    /// then reading `contender`'s repository; the upgrade's wall time, or nil after saying why
    /// it did not do what it should.
    private static func time(_ contender: Contender, run: Int, old: PrivateDNFRoot, names: [String], installtop: String) -> Double? {
        guard let root = DNFRealBenchmark.freshRoot(of: old, run: run) else { return nil }
        let folder = URL(fileURLWithPath: root).deletingLastPathComponent().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let install = SystemCommand.run([installtop, "dnf", "install"] + names
            + ["--installroot", root, "--releasever", old.releaseVersion, "--yes", "--no-history"])
        guard install.status == 0 else {
            print("  installing 1.0 in \(root) failed: \(install.stderr)")
            return nil
        }
        let repo = root + "/etc/yum.repos.d/lab.repo"
        guard let text = try? String(contentsOfFile: repo, encoding: .utf8),
              (try? text.replacingOccurrences(of: "file://" + old.repository, with: "file://" + contender.repository)
                .write(toFile: repo, atomically: true, encoding: .utf8)) != nil else {
            print("  cannot point \(repo) at \(contender.repository)")
            return nil
        }
        // The metadata of the old repository must not stand for the new one (dnf counts its age in seconds).
        try? FileManager.default.removeItem(atPath: root + "/var/cache/dnf")
        let history = folder + "/history.sqlite3"
        let result = APTRealBenchmark.spawn(contender.arguments(root, history))
        let versions = SystemCommand.run([PrivateDNFRoot.rpm, "--root", root, "--dbpath", "/var/lib/rpm", "-qa", "--qf", "%{VERSION}\\n"])
        let atTwo = versions.stdout.split(separator: "\n").filter { $0 == "2.0" }.count
        guard result.status == 0, atTwo == names.count else {
            print("  \(contender.name) failed in \(root): exit status \(result.status), \(atTwo) of \(names.count) at 2.0")
            return nil
        }
        if let source = contender.source {
            let kept = SystemCommand.run(["/usr/bin/sqlite3", history, "SELECT count(*) FROM keptVersion WHERE file IS NOT NULL AND source = '\(source)'"])
            guard kept.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(names.count) else {
                let all = SystemCommand.run(["/usr/bin/sqlite3", history, "SELECT source, failure FROM keptVersion LIMIT 3"]).stdout
                print("  \(contender.name): \(kept.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) of \(names.count) kept as \(source) (\(all))")
                return nil
            }
        }
        return result.wall
    }
}
