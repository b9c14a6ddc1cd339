import InstallEngine

/// Which packages of a plan dpkg's database marks `Essential: yes` (perl-base, libc-bin, dpkg),
/// so that upgrading or removing one is shown as such: one `dpkg-query` for every installed
/// package of the plan, in the plan's own root.
enum APTEssentialPackages {
    /// `changes` with `essential` set from the database in `administrativeDirectory`; unchanged
    /// when none of them was installed before, or when dpkg-query cannot say (an unknown name
    /// makes it exit 1, yet it prints the others).
    static func marking(_ changes: [PackageChange], administrativeDirectory: String) -> [PackageChange] {
        let installed = changes.filter { $0.action != .install }.map(\.package)
        guard !installed.isEmpty else { return changes }
        let essential = parse(SystemCommand.run(command(installed, administrativeDirectory: administrativeDirectory)).stdout)
        guard !essential.isEmpty else { return changes }
        return changes.map { change in
            var marked = change
            marked.essential = change.action != .install && essential.contains(change.package)
            return marked
        }
    }

    /// `dpkg-query -W` of `packages`: a line `name yes` (or `name no`, `name ` when the field is
    /// missing) per package dpkg knows, per architecture.
    static func command(_ packages: [String], administrativeDirectory: String) -> [String] {
        ["/usr/bin/dpkg-query", "--admindir=\(administrativeDirectory)", "-W", "-f=${Package} ${Essential}\n", "--"] + packages
    }

    /// The names, without architecture, whose field is `yes`.
    static func parse(_ output: String) -> Set<String> {
        var names = Set<String>()
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 2, fields[1] == "yes" else { continue }
            names.insert(String(fields[0].split(separator: ":", maxSplits: 1)[0]))
        }
        return names
    }
}
