/// One file apt will fetch, from `apt-get --print-uris -qq …`:
/// `'file:/repo/./lab-base_1.0_all.deb' lab-base_1.0_all.deb 5242 SHA256:…`. Line N of that
/// list is file N of apt's `dlstatus` lines.
public struct APTDownload: Sendable, Hashable {
    public var uri: String
    public var fileName: String
    /// The package the file is of: the file name up to its first `_` (Debian's pool names).
    public var package: String
    public var size: Int64

    public init(uri: String, fileName: String, package: String, size: Int64) {
        self.uri = uri
        self.fileName = fileName
        self.package = package
        self.size = size
    }

    /// Every download line of `--print-uris` output, in order; other lines are skipped.
    public static func list(from output: String) -> [APTDownload] {
        output.split(separator: "\n").compactMap { download(from: $0) }
    }

    static func download(from line: Substring) -> APTDownload? {
        guard line.hasPrefix("'"), let close = line.dropFirst().firstIndex(of: "'") else { return nil }
        let uri = String(line[line.index(after: line.startIndex)..<close])
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count >= 2, let size = Int64(fields[1]) else { return nil }
        let fileName = String(fields[0])
        let package = fileName.split(separator: "_", maxSplits: 1).first.map(String.init) ?? fileName
        return APTDownload(uri: uri, fileName: fileName, package: package, size: size)
    }
}
