import InstallEngine

/// Reads the plan out of `apt-get -s -o APT::Immediate-Configure-All=1 …`'s output: every
/// `Inst`, `Remv` and `Purg` line, in the order apt will act (Documentation/PACKAGE-FACTS.md). `Conf` lines repeat
/// packages already listed and are skipped; every other line (notes, "The following …") too.
public enum APTSimulation {
    /// The changes in apt's order, each package once.
    public static func plan(from output: String) -> [PackageChange] {
        var changes: [PackageChange] = []
        var seen = Set<String>()
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let change = change(from: line), seen.insert(change.package).inserted else { continue }
            changes.append(change)
        }
        return changes
    }

    /// One line: `Inst P [old] (new origin [arch])`, `Inst P (new origin [arch]) []`,
    /// `Remv P [old]`, `Purg P [old]`; `nil` for any other line.
    static func change(from line: Substring) -> PackageChange? {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count >= 2, ["Inst", "Remv", "Purg"].contains(words[0]) else { return nil }
        let package = String(words[1].split(separator: ":", maxSplits: 1)[0])
        let rest = words.count > 2 ? words[2] : ""
        let oldVersion = rest.hasPrefix("[") ? rest.dropFirst().prefix { $0 != "]" } : nil
        switch words[0] {
        case "Remv":
            return PackageChange(package: package, action: .remove, oldVersion: oldVersion.map(String.init))
        case "Purg":
            return PackageChange(package: package, action: .purge, oldVersion: oldVersion.map(String.init))
        default:
            // "(new origin… [arch])": the version is the first word, the architecture the last bracket.
            guard let open = rest.firstIndex(of: "(") else { return nil }
            let inside = rest[rest.index(after: open)...].prefix { $0 != ")" }
            let newVersion = inside.split(separator: " ").first.map(String.init)
            var architecture: String?
            if let bracket = inside.lastIndex(of: "[") {
                architecture = String(inside[inside.index(after: bracket)...].prefix { $0 != "]" })
            }
            let action: PackageChange.Action =
                oldVersion == nil ? .install : (oldVersion.map(String.init) == newVersion ? .reinstall : .upgrade)
            return PackageChange(package: package, action: action, oldVersion: oldVersion.map(String.init),
                                    newVersion: newVersion, architecture: architecture)
        }
    }
}
