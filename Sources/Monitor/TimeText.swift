#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TextBasics

/// Short time spans for narrow columns.
enum TimeText {
    /// A clock-style elapsed time: `0:05`, `12:34`, `1:02:03`. Negative counts as 0.
    static func elapsed(_ seconds: TimeInterval) -> String {
        let total = Int(max(0, seconds))
        let (hours, minutes, rest) = (total / 3600, total % 3600 / 60, total % 60)
        let paddedSeconds = rest < 10 ? "0\(rest)" : "\(rest)"
        if hours > 0 {
            return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(paddedSeconds)"
        }
        return "\(minutes):\(paddedSeconds)"
    }

    /// `12:34:56`: `date`'s time of day in `timeZone`.
    static func clock(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        return [parts.hour, parts.minute, parts.second].map(twoDigits).joined(separator: ":")
    }

    /// `07`, `12`: a calendar field of a date written with at least two digits (0 when missing).
    static func twoDigits(_ value: Int?) -> String {
        CFormat.twoDigits(value ?? 0)
    }

    /// An ETA: `4s`, `1m20s`, `2h5m`; whole seconds, rounded up so it never shows 0 too early.
    static func remaining(_ seconds: TimeInterval) -> String {
        Duration.seconds(Int64(max(0, seconds).rounded(.up))).shortText
    }
}
