import Glibc
import RestartScan

/// What unattended-upgrade's own log says about the run a process is doing: the origins it is
/// allowed to upgrade from and the packages it said it will upgrade. The log is the file the
/// process holds open whose name is `unattended-upgrades.log` (its `Unattended-Upgrade::LogDir`,
/// `/var/log/unattended-upgrades/` by default), so no configuration is read; only its last 64 KiB.
public struct UnattendedUpgradeLog: Sendable, Hashable {
    /// `origin=Debian,codename=bookworm,label=Debian-Security` (several joined by `, `).
    public var origins: String
    /// `nginx libssl3`; empty when the run has not said yet.
    public var packages: String

    /// The last run's lines in `pid`'s log; `nil` when the process holds no such log open or it
    /// names no origins yet.
    public init?(pid: Int32) {
        guard let path = Self.openLog(of: pid), let text = Self.tail(of: path, bytes: 64 << 10) else { return nil }
        var origins: String?
        var packages = ""
        for line in text.split(separator: "\n") {
            if let value = Self.value(line, after: "Allowed origins are: ") {
                origins = value
                packages = ""
            } else if let value = Self.value(line, after: "Packages that will be upgraded: ") {
                packages = value
            }
        }
        guard let origins, !origins.isEmpty else { return nil }
        self.origins = origins
        self.packages = packages
    }

    private static func value(_ line: Substring, after marker: String) -> String? {
        guard let range = line.firstRange(of: marker) else { return nil }
        return String(line[range.upperBound...]).strippingSpaces()
    }

    private static func openLog(of pid: Int32) -> String? {
        ProcFS().openFiles(of: pid).first { $0.hasSuffix("/unattended-upgrades.log") }
    }

    private static func tail(of path: String, bytes: Int) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let start = max(0, Int(info.st_size) - bytes)
        var data = [UInt8](repeating: 0, count: Int(info.st_size) - start)
        let count = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(start)) }
        guard count > 0 else { return nil }
        return String(decoding: data[0..<count], as: UTF8.self)
    }
}

private extension String {
    func strippingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
