import Foundation
import Glibc

/// A cgroup v2 of the test's own under the unified hierarchy, named like a systemd service
/// (`…/installtop-restart-test-PID.slice/NAME.service`); `remove()` deletes both folders once
/// the processes in it are gone.
public struct LiveCgroup {
    /// Where the unified (v2) hierarchy is mounted: `/sys/fs/cgroup` on a pure v2 host,
    /// `/sys/fs/cgroup/unified` on a hybrid one.
    public static let hierarchy: String? = ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"].first {
        FileManager.default.fileExists(atPath: $0 + "/cgroup.procs") && FileManager.default.fileExists(atPath: $0 + "/cgroup.controllers")
    }

    /// Root with a writable unified hierarchy.
    public static var available: Bool { getuid() == 0 && hierarchy.map { access($0, W_OK) == 0 } == true }

    public let unit: String
    private let slice: String
    private let path: String

    public init(unit: String) throws {
        self.unit = unit
        slice = (Self.hierarchy ?? "/sys/fs/cgroup") + "/installtop-restart-test-\(getpid()).slice"
        path = slice + "/" + unit
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Moves process `pid` into the cgroup.
    public func add(_ pid: Int32) throws {
        try Data("\(pid)\n".utf8).write(to: URL(fileURLWithPath: path + "/cgroup.procs"))
    }

    public func remove() {
        rmdir(path)
        rmdir(slice)
    }
}
