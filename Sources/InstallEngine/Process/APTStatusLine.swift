/// APT's `APT::Status-Fd` lines, as apt writes them (apt-pkg/install-progress.cc and
/// apt-pkg/acquire.cc): `<kind>:<subject>:<percent>:<text>`.
///
/// - `pmstatus:<package>:<percent>:<action>` and `dlstatus:<item>:<percent>:<text>` →
///   `.progress(percent, text)`.
/// - `pmerror:<package>:<percent>:<text>` → `.error("<package>: <text>")`.
/// - `pmconffile:<package>:<percent>:'<current>' '<new>' <edited> <distedited>` →
///   `.message` telling that dpkg asks about that configuration file.
///
/// The subject may itself contain `:` (`libc6:amd64`; apt passes full names to `pmerror` and
/// `pmconffile`) and so may the text. So the percent is the first field after the subject's
/// first field that is a plain decimal number; the subject is everything before it and the
/// text everything after it. A line with no such field, or a percent outside 0…100, is
/// malformed. A missing or blank text gives a `nil` progress message.
public enum APTStatusLine {
    private enum Kind {
        case packageStatus, downloadStatus, packageError, conffilePrompt
    }

    /// The report of an APT status line in `line[start..<end]`, or `nil` when the line does not
    /// start with one of APT's prefixes. A recognised prefix with a broken body gives
    /// `.malformedChannelLine`.
    static func parse(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> UpdateReport? {
        let kind: Kind
        let bodyStart: Int
        if LineBytes.hasPrefix("pmstatus:", in: line, from: start, to: end) {
            (kind, bodyStart) = (.packageStatus, start + 9)
        } else if LineBytes.hasPrefix("dlstatus:", in: line, from: start, to: end) {
            (kind, bodyStart) = (.downloadStatus, start + 9)
        } else if LineBytes.hasPrefix("pmerror:", in: line, from: start, to: end) {
            (kind, bodyStart) = (.packageError, start + 8)
        } else if LineBytes.hasPrefix("pmconffile:", in: line, from: start, to: end) {
            (kind, bodyStart) = (.conffilePrompt, start + 11)
        } else {
            return nil
        }
        guard let (percentRange, percent) = findPercent(line, from: bodyStart, to: end), percent <= 100 else {
            return .malformedChannelLine
        }
        let subject = LineBytes.text(line, bodyStart..<(percentRange.lowerBound - 1)) ?? ""
        let text = percentRange.upperBound < end ? LineBytes.text(line, (percentRange.upperBound + 1)..<end) : nil
        switch kind {
        case .packageStatus, .downloadStatus:
            return .progress(percent: percent, message: text)
        case .packageError:
            return .error(joined(subject, text ?? "dpkg reported an error"))
        case .conffilePrompt:
            return .message(joined(subject, conffileDescription(text)))
        }
    }

    // MARK: - Fields

    /// The fields of one Status-Fd line (`kind:subject:percent:text`), read as `parse` reads
    /// them: the percent is the first field after the subject's first one that is a plain
    /// decimal (`42`, `42.5`; never `1e2`, `-1`, `nan`: apt writes none of those, and a field
    /// that looks so belongs to the subject). `nil` when the line has no kind or no such field.
    public static func fields(of line: String) -> (kind: String, subject: String, percent: Double, text: String)? {
        var line = line
        return line.withUTF8 { bytes in
            guard let kindEnd = bytes.firstIndex(of: UInt8(ascii: ":")),
                  let (percentRange, percent) = findPercent(bytes, from: kindEnd + 1, to: bytes.count) else { return nil }
            func text(_ range: Range<Int>) -> String {
                range.isEmpty ? "" : String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            return (text(0..<kindEnd), text((kindEnd + 1)..<(percentRange.lowerBound - 1)), percent,
                    text(min(percentRange.upperBound + 1, bytes.count)..<bytes.count))
        }
    }

    /// The range and value of the first `:`-separated field, from the second one on, that is
    /// a plain decimal.
    private static func findPercent(_ line: UnsafeBufferPointer<UInt8>, from bodyStart: Int, to end: Int) -> (Range<Int>, Double)? {
        var fieldStart = bodyStart
        var fieldIndex = 0
        var index = bodyStart
        while index <= end {
            if index == end || line[index] == UInt8(ascii: ":") {
                if fieldIndex >= 1, let value = DecimalPercent.parse(line, fieldStart..<index) {
                    return (fieldStart..<index, value)
                }
                fieldIndex += 1
                fieldStart = index + 1
            }
            index += 1
        }
        return nil
    }

    private static func joined(_ subject: String, _ text: String) -> String {
        subject.isEmpty ? text : "\(subject): \(text)"
    }

    /// dpkg's conffile detail is `'<current>' '<new>' <useredited> <distedited>`; say it in
    /// words, or keep the raw detail when it has another shape.
    private static func conffileDescription(_ detail: String?) -> String {
        guard let detail else { return "dpkg asks about a configuration file" }
        let quoted = detail.split(separator: "'", omittingEmptySubsequences: false)
        if quoted.count >= 5, quoted[0].allSatisfy(\.isWhitespace), quoted[2].allSatisfy(\.isWhitespace),
           !quoted[1].isEmpty, !quoted[3].isEmpty {
            return "dpkg asks whether to keep configuration file \(quoted[1]) or install the package's version \(quoted[3])"
        }
        return "dpkg asks about a configuration file: \(detail)"
    }
}
