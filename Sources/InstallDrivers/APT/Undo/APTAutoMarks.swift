import InstallEngine

/// apt's marks of automatically installed packages, where a job acts (`apt-mark`): an undo
/// installs the kept versions from local .debs, which apt marks as installed by hand, so the
/// packages that were automatic are marked so again after it (issue 35, item 4; PACKAGES.md).
public enum APTAutoMarks {
    /// The packages apt has marked automatically installed in `environment`; empty when
    /// apt-mark cannot say.
    public static func automatic(in environment: APTEnvironment, aptMark: String = "/usr/bin/apt-mark") -> Set<String> {
        automaticIfKnown(in: environment, aptMark: aptMark) ?? []
    }

    /// The same, `nil` when apt-mark cannot say (rather than empty: a kept version then
    /// records "unknown", never "manual").
    public static func automaticIfKnown(in environment: APTEnvironment, aptMark: String = "/usr/bin/apt-mark") -> Set<String>? {
        let shown = SystemCommand.run(environment.command([aptMark, "showauto"]), environment: environment.commandEnvironment)
        guard shown.status == 0 else { return nil }
        return Set(shown.stdout.split(separator: "\n").map { String($0.split(separator: ":", maxSplits: 1)[0]) })
    }

    /// Marks `packages` automatically installed in `environment`; `nil` when it worked, else
    /// apt-mark's words.
    public static func markAutomatic(_ packages: [String], in environment: APTEnvironment, aptMark: String = "/usr/bin/apt-mark") -> String? {
        guard !packages.isEmpty else { return nil }
        let marked = SystemCommand.run(environment.command([aptMark, "auto"] + packages), environment: environment.commandEnvironment)
        guard marked.status != 0 else { return nil }
        return marked.stderr.isEmpty ? "apt-mark exited with status \(marked.status)" : marked.stderr
    }
}
