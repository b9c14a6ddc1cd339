/// Why an end-to-end helper gave up; thrown so the test fails with the reason.
enum EndToEndError: Error, CustomStringConvertible {
    /// No installtop executable in any of these places.
    case binaryMissing(searched: [String])
    /// installtop did not exit within `seconds`, or (`silent`) wrote nothing for `seconds`; it
    /// was killed. Its output so far is attached.
    case timedOut(arguments: [String], seconds: Int, silent: Bool = false, stdout: String, stderr: String)
    /// A polled condition did not hold within its deadline.
    case conditionNotMet(String)
    /// posix_spawn failed.
    case spawnFailed(executable: String, reason: String)
    /// A stdout line of a `--json` run that is not a JSON object.
    case notJSON(line: String)

    var description: String {
        switch self {
        case .binaryMissing(let searched):
            return "the installtop executable was not found (looked at: \(searched.joined(separator: ", "))); run `swift build` first"
        case .timedOut(let arguments, let seconds, let silent, let stdout, let stderr):
            let why = silent ? "wrote nothing for \(seconds) s" : "did not exit within \(seconds) s"
            return "installtop \(arguments.joined(separator: " ")) \(why) and was killed\n"
                + "--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
        case .conditionNotMet(let what):
            return "gave up waiting: \(what)"
        case .spawnFailed(let executable, let reason):
            return "cannot start \(executable): \(reason)"
        case .notJSON(let line):
            return "a stdout line is not a JSON object: \(line)"
        }
    }
}
