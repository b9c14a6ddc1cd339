import Foundation

/// How an installtop run ended.
struct RunResult {
    /// The exit status, or 128 + the signal number when a signal ended it.
    let status: Int32
    let stdout: String
    /// stdout exactly as written, to look for bytes a String would hide.
    let stdoutBytes: Data
    let stderr: String

    /// stdout's non-empty lines.
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// stdout as JSON Lines: one object per line.
    ///
    /// - Throws: `EndToEndError.notJSON` with the first line that is not a JSON object.
    func jsonObjects() throws -> [[String: Any]] {
        try stdoutLines.map { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw EndToEndError.notJSON(line: line)
            }
            return object
        }
    }
}
