/// Where `installtop serve` writes its metrics textfile: the directory given, else Debian's
/// prometheus-node-exporter textfile directory when it exists (the package makes it and
/// points the collector at it), else nowhere.
public enum MetricsTextfileLocation {
    /// The directory Debian's `prometheus-node-exporter` reads textfiles from
    /// (`--collector.textfile.directory` in its `/etc/default/prometheus-node-exporter`).
    public static let debianDirectory = "/var/lib/prometheus/node-exporter"

    /// The directory to write into: `given` when there is one (whether it exists is found out
    /// by the first write, which says so in the log), none when `disabled`, else
    /// `debianDirectory` when `isDirectory` says it exists, else none.
    public static func directory(given: String?, disabled: Bool, isDirectory: (String) -> Bool) -> String? {
        if disabled { return nil }
        if let given { return given }
        return isDirectory(debianDirectory) ? debianDirectory : nil
    }
}
