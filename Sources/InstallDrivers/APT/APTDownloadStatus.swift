/// The job's status text while apt fetches its files, from its `dlstatus` lines:
/// `downloading 12 of 50 · 31.4 of 80.2 MB`. File N of the line is the Nth of the plan's
/// download list; the bytes done are apt's overall download percent of the list's total
/// (never less than the files before N), so the figure moves within a large file too.
struct APTDownloadStatus: Sendable {
    private let downloads: [APTDownload]
    private let totalBytes: Int64
    /// The text said last, so a repeated line says nothing new.
    private var said: String?

    init(downloads: [APTDownload]) {
        self.downloads = downloads
        totalBytes = downloads.reduce(0) { $0 + max(0, $1.size) }
    }

    /// The new text for a `dlstatus` line about file `item` at apt's overall `percent`, whose
    /// text is apt's `Retrieving file N of M`; `nil` when it says nothing new or names a file
    /// outside the list.
    mutating func text(item: Int, percent: Double, aptText: String) -> String? {
        guard item >= 1, item <= downloads.count else { return nil }
        let files = Self.fileCount(in: aptText) ?? downloads.count
        let before = downloads[..<(item - 1)].reduce(Int64(0)) { $0 + max(0, $1.size) }
        let done = min(totalBytes, max(before, Int64((min(max(percent, 0), 100) / 100 * Double(totalBytes)).rounded())))
        let text = "downloading \(item) of \(files)" + (totalBytes > 0 ? " · " + Self.bytes(done, of: totalBytes) : "")
        guard text != said else { return nil }
        said = text
        return text
    }

    /// `M` of apt's `Retrieving file N of M`.
    private static func fileCount(in text: String) -> Int? {
        text.split(separator: " ").last.flatMap { Int($0) }
    }

    /// `31.4 of 80.2 MB`: both in the total's unit (apt's powers of 1000), as `ByteCountText`
    /// says the total.
    static func bytes(_ done: Int64, of total: Int64) -> String {
        let totalText = ByteCountText.text(total)
        guard let space = totalText.lastIndex(of: " ") else { return "\(done) of \(totalText)" }
        let unit = totalText[totalText.index(after: space)...]
        guard unit != "B" else { return "\(done) of \(totalText)" }
        let scales: [String: Double] = ["kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12]
        let scale = scales[String(unit)] ?? 1
        let value = (Double(done) / scale * 10).rounded() / 10
        return "\(value) of \(totalText)"
    }
}
