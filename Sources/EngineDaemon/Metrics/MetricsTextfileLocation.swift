/// Where `installtop serve` writes its metrics textfile: the directory given, else, for the
/// machine's engine, Debian's prometheus-node-exporter textfile directory when it exists (the
/// package makes it and points the collector at it), else nowhere. An engine of its own (a
/// user's, a test's, on another socket) is not the machine's: it writes only where it is told,
/// so that two engines never write one file.
public enum MetricsTextfileLocation {
    /// The directory Debian's `prometheus-node-exporter` reads textfiles from
    /// (`--collector.textfile.directory` in its `/etc/default/prometheus-node-exporter`).
    public static let debianDirectory = "/var/lib/prometheus/node-exporter"

    /// The directory to write into: `given` when there is one (whether it exists is found out
    /// by the first write, which says so in the log), none when `disabled`, else, when
    /// `socket` is the machine's (`SocketLocation.machineSocket`), `debianDirectory` when
    /// `isDirectory` says it exists, else none.
    public static func directory(given: String?, disabled: Bool, socket: String, isDirectory: (String) -> Bool) -> String? {
        if disabled { return nil }
        if let given { return given }
        guard socket == SocketLocation.machineSocket else { return nil }
        return isDirectory(debianDirectory) ? debianDirectory : nil
    }
}
