import EngineWire
import InstallEngine

extension APTSimulation {
    /// The packages an `apt-get -s upgrade` would install or upgrade, in apt's order, each once,
    /// with the origin its `Inst` line names (`Inst P [old] (new origin [arch])`).
    public static func pendingPackages(from output: String) -> [PendingPackage] {
        var packages: [PendingPackage] = []
        var seen = Set<String>()
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix("Inst ") {
            guard let change = change(from: line), let newVersion = change.newVersion, seen.insert(change.package).inserted else { continue }
            packages.append(PendingPackage(name: change.package, oldVersion: change.oldVersion, newVersion: newVersion,
                                           origin: origin(from: line) ?? "", architecture: change.architecture))
        }
        return packages
    }

    /// The origin in `(new origin [arch])`: what follows the version, without the architecture
    /// in brackets; `nil` for a line without parentheses.
    static func origin(from line: Substring) -> String? {
        guard let open = line.firstIndex(of: "(") else { return nil }
        var inside = line[line.index(after: open)...].prefix { $0 != ")" }
        inside = inside.drop { $0 != " " }.dropFirst()
        if inside.hasSuffix("]"), let bracket = inside.lastIndex(of: "[") {
            inside = inside[..<bracket]
        }
        while inside.last == " " { inside = inside.dropLast() }
        return String(inside)
    }
}
