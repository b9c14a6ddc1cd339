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
        return DpkgFloor(configureRun: APTRealBenchmark.median(configure), databaseRead: APTRealBenchmark.median(read),
                         files: listedFiles(in: chroot + "/var/lib/dpkg/info"))
    }

    private static func listedFiles(in folder: String) -> Int {
        let lists = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".list") }
        return lists.reduce(0) { count, name in
            count + ((try? String(contentsOfFile: folder + "/" + name, encoding: .utf8))?.split(separator: "\n").count ?? 0)
        }
    }
}
