import Foundation

/// What one dpkg run costs in a chroot before it does any work, the floor under every safe point
/// of `Immediate-Configure-All` (one unpack and one configure run per package): a configure run
/// with nothing pending, and the read of the files database (every `info/*.list`) that each
/// unpack run starts with ("Reading database …"), timed as `dpkg -S` of a path no package has.
struct DpkgFloor {
    /// Seconds of `dpkg --configure --pending` with nothing pending (median).
    var configureRun: Double
    /// Seconds of `dpkg -S` reading the files database (median).
    var databaseRead: Double
    /// The files the database lists (lines of every `info/*.list`).
    var files: Int

    /// Times each `times` times in `chroot` as it is now.
    static func measure(in chroot: String, times: Int = 5) -> DpkgFloor {
        let inside = ["/usr/sbin/chroot", chroot, "/usr/bin/dpkg"]
        let configure = (0..<times).map { _ in APTRealBenchmark.spawn(inside + ["--configure", "--pending"]).wall }
        let read = (0..<times).map { _ in APTRealBenchmark.spawn(inside + ["-S", "/installtop-bench/no-such-file"]).wall }
        return DpkgFloor(configureRun: median(configure), databaseRead: median(read),
                         files: listedFiles(in: chroot + "/var/lib/dpkg/info"))
    }

    /// How the files database read grows with the installed file count: `dpkg -S` against
    /// copies of the chroot's database (its status and `info/*.list`, in a temporary folder,
    /// never the chroot's own) with `extra` more files each, listed by made-up packages.
    /// Returns each size's files and median seconds.
    static func databaseGrowth(of chroot: String, extra: [Int] = [0, 50_000, 100_000], times: Int = 5) -> [(files: Int, seconds: Double)] {
        let source = chroot + "/var/lib/dpkg"
        return extra.compactMap { more -> (files: Int, seconds: Double)? in
            let copy = NSTemporaryDirectory() + "installtop-bench-dpkgdb-\(getpid())-\(more)"
            defer { try? FileManager.default.removeItem(atPath: copy) }
            guard (try? FileManager.default.createDirectory(atPath: copy + "/info", withIntermediateDirectories: true)) != nil,
                  var status = try? String(contentsOfFile: source + "/status", encoding: .utf8) else { return nil }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: source + "/info")) ?? [] where name.hasSuffix(".list") {
                try? FileManager.default.copyItem(atPath: source + "/info/" + name, toPath: copy + "/info/" + name)
            }
            let perPackage = 500
            for package in 0..<(more / perPackage) {
                let name = "installtop-bench-fake-\(package)"
                status += "\nPackage: \(name)\nStatus: install ok installed\nPriority: optional\nSection: misc\nMaintainer: bench <bench@localhost>\nArchitecture: all\nVersion: 1.0\nDescription: made up\n"
                let paths = (0..<perPackage).map { "/usr/share/\(name)/file-\($0)" }.joined(separator: "\n")
                try? ("/usr/share/\(name)\n" + paths + "\n").write(toFile: copy + "/info/\(name).list", atomically: false, encoding: .utf8)
            }
            guard (try? status.write(toFile: copy + "/status", atomically: false, encoding: .utf8)) != nil else { return nil }
            let read = (0..<times).map { _ in APTRealBenchmark.spawn(["/usr/bin/dpkg", "--admindir=\(copy)", "-S", "/installtop-bench/no-such-file"]).wall }
            return (listedFiles(in: copy + "/info"), median(read))
        }
    }

    private static func listedFiles(in folder: String) -> Int {
        let lists = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".list") }
        return lists.reduce(0) { count, name in
            count + ((try? String(contentsOfFile: folder + "/" + name, encoding: .utf8))?.split(separator: "\n").count ?? 0)
        }
    }
}
