#if canImport(Glibc)
import Glibc
#endif

/// C's `printf` formatting of numbers, for the few fixed-width figures installtop prints
/// (`%.1f`, `%02d`): the C library's own rounding, with no locale (the C locale's `.`), and
/// without Foundation's `String(format:)`, which links ICU's data into the binary.
public enum CFormat {
    /// `format` (a C format string) filled with `arguments`, as `snprintf` writes it; the
    /// arguments must match the format's conversions as in C (`Int` for `%d` is wrong: use
    /// `%ld`, or `Int32`). Output longer than 255 bytes is cut there.
    public static func string(_ format: String, _ arguments: any CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 256)
            _ = vsnprintf(&buffer, buffer.count, format, list)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// `value` with `places` decimals, rounded as `printf("%.*f")` rounds: `1.25` → `1.2`.
    public static func decimals(_ value: Double, places: Int) -> String {
        string("%.*f", Int32(places), value)
    }

    /// `value` as at least two digits, zero-padded: `7` → `07`, `123` → `123`, `-3` → `-3`.
    public static func twoDigits(_ value: Int) -> String {
        (0..<10).contains(value) ? "0\(value)" : "\(value)"
    }
}
