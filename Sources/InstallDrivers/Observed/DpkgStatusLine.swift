import TextBasics
/// One line of dpkg's status logger (the `--status-fd` format, Documentation/PACKAGE-FACTS.md):
/// `processing: install: P`, `status: P: half-installed`, `status: P : error : TEXT`.
public enum DpkgStatusLine: Sendable, Hashable {
    /// dpkg begins ACTION (`install`, `upgrade`, `configure`, `remove`, `purge`, `trigproc`) on P.
    case processing(action: String, package: String)
    /// P is now in STATE (`half-installed`, `unpacked`, `half-configured`, `installed`,
    /// `triggers-pending`, `config-files`, `not-installed` …).
    case status(package: String, state: String)
    /// dpkg reports an error about P.
    case error(package: String, message: String)

    /// Parses a line; `nil` for anything else (conffile prompts, an empty line).
    public init?(_ line: String) {
        if line.hasPrefix("processing: ") {
            let fields = line.dropFirst("processing: ".count).split(separator: ":", maxSplits: 1)
            guard fields.count == 2 else { return nil }
            self = .processing(action: String(fields[0]), package: Self.name(fields[1]))
            return
        }
        guard line.hasPrefix("status: ") else { return nil }
        let rest = line.dropFirst("status: ".count)
        if let error = rest.firstRange(of: " : error : ") {
            self = .error(package: Self.name(rest[..<error.lowerBound]), message: String(rest[error.upperBound...]))
            return
        }
        let fields = rest.split(separator: ":")
        // `P: STATE` or `P:ARCH: STATE`.
        guard fields.count >= 2 else { return nil }
        self = .status(package: Self.name(fields[0]), state: fields.last.map { $0.trimmingSpaces() } ?? "")
    }

    /// A package name without its `:arch` and spaces.
    private static func name(_ text: Substring) -> String {
        String(text.trimmingSpaces().split(separator: ":").first ?? "")
    }
}

private extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
