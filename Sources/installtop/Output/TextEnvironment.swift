#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TerminalUI

/// What the environment says about text output: the locale's encoding and NO_COLOR.
enum TextEnvironment {
    /// True when the effective locale (LC_ALL, then LC_CTYPE, then LANG) is UTF-8.
    static func isUTF8(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    /// `NO_COLOR` set to any value removes colour (https://no-color.org).
    static func noColor(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["NO_COLOR"] != nil
    }

    /// The sanitizer for child text on this output.
    static var sanitizer: TextSanitizer {
        TextSanitizer(mode: isUTF8() ? .unicode : .ascii)
    }
}
