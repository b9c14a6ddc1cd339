/// The job's status text while apt fetches its files, from its `dlstatus` lines:
/// `downloading 12 of 50 · 31.4 of 80.2 MB`. File N of the line is the Nth of the plan's
/// download list; the bytes done are apt's overall download percent of the list's total
/// (never less than the files before N), so the figure moves within a large file too.
struct APTDownloadStatus: Sendable {
    /// `bytesBefore[i]`: the sizes of the list's first `i` files, so a line costs the same
    /// whatever its file's place in a list of thousands.
    private let bytesBefore: [Int64]
    private var totalBytes: Int64 { bytesBefore.last ?? 0 }
    /// The total as said (`80.2 MB`) and the size of its unit (`nil` for bytes), made once.
    private let totalText: String
    private let unitScale: Double?
    /// The text said last, so a repeated line says nothing new.
    private var said: String?

    init(downloads: [APTDownload]) {
        var sums: [Int64] = [0]
        sums.reserveCapacity(downloads.count + 1)
        for download in downloads { sums.append(sums[sums.count - 1] + max(0, download.size)) }
        bytesBefore = sums
        let total = sums[sums.count - 1]
        totalText = ByteCountText.text(total)
        unitScale = Self.scale(of: totalText)
    }

    /// The new text for a `dlstatus` line about file `item` at apt's overall `percent`, whose
    /// text is apt's `Retrieving file N of M`; `nil` when it says nothing new or names a file
    /// outside the list.
    mutating func text(item: Int, percent: Double, aptText: String) -> String? {
        guard item >= 1, item < bytesBefore.count else { return nil }
        let files = Self.fileCount(in: aptText) ?? (bytesBefore.count - 1)
        let before = bytesBefore[item - 1]
        let done = min(totalBytes, max(before, Int64((min(max(percent, 0), 100) / 100 * Double(totalBytes)).rounded())))
        let text = "downloading \(item) of \(files)" + (totalBytes > 0 ? " · " + bytes(done) : "")
        guard text != said else { return nil }
        said = text
        return text
    }

    /// `M` of apt's `Retrieving file N of M`: the digits after the last blank (no split: this
    /// runs for every file of a download).
    private static func fileCount(in text: String) -> Int? {
        let utf8 = text.utf8
        let start = utf8.lastIndex(of: UInt8(ascii: " ")).map(utf8.index(after:)) ?? utf8.startIndex
        return Int(Substring(text.utf8[start...]))
    }

    /// `31.4 of 80.2 MB`: both in the total's unit (apt's powers of 1000), as `ByteCountText`
    /// says the total.
    private func bytes(_ done: Int64) -> String {
        guard let unitScale else { return "\(done) of \(totalText)" }
        let value = (Double(done) / unitScale * 10).rounded() / 10
        return "\(value) of \(totalText)"
    }

    /// The size of the unit `ByteCountText` ended `text` with; `nil` for bytes or a unit it
    /// does not know.
    private static func scale(of text: String) -> Double? {
        guard let space = text.lastIndex(of: " ") else { return nil }
        let scales: [Substring: Double] = ["kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12]
        return scales[text[text.index(after: space)...]]
    }
}
