#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TextBasics

/// apt's marks of automatically installed packages, where a job acts (`apt-mark`): an undo
/// installs the kept versions from local .debs, which apt marks as installed by hand, so the
/// packages that were automatic are marked so again after it (issue 35, item 4; Documentation/PACKAGE-FACTS.md).
public enum APTAutoMarks {
    /// The packages apt has marked automatically installed in `environment`; empty when
    /// apt-mark cannot say.
    public static func automatic(in environment: APTEnvironment, aptMark: String = "/usr/bin/apt-mark") -> Set<String> {
        automaticIfKnown(in: environment, aptMark: aptMark) ?? []
    }

    /// The same, `nil` when apt-mark cannot say (rather than empty: a kept version then
    /// records "unknown", never "manual").
    ///
    /// Read from apt's `extended_states` file itself when the environment names it: apt-mark
    /// builds apt's whole cache first (1.1 s on a host without `pkgcache.bin`), and this runs
    /// while dpkg waits. A file that is not there marks nothing automatic, as apt reads it.
    public static func automaticIfKnown(in environment: APTEnvironment, aptMark: String = "/usr/bin/apt-mark") -> Set<String>? {
        if let path = environment.extendedStates {
            if !FileManager.default.fileExists(atPath: path) { return [] }
            if let text = try? String(contentsOfFile: path, encoding: .utf8) { return automatic(inExtendedStates: text) }
        }
        let shown = SystemCommand.run(environment.command([aptMark, "showauto"]), environment: environment.commandEnvironment)
        guard shown.status == 0 else { return nil }
        return Set(shown.stdout.split(separator: "\n").map { String($0.split(separator: ":", maxSplits: 1)[0]) })
    }

    /// The packages an `extended_states` text marks `Auto-Installed: 1`.
    static func automatic(inExtendedStates text: String) -> Set<String> {
        var automatic: Set<String> = []
        for stanza in text.components(separatedBy: "\n\n") {
            var package: String?
            var auto = false
            for line in stanza.split(separator: "\n") {
                if line.hasPrefix("Package:") { package = line.dropFirst("Package:".count).trimmingSpaces }
                if line.hasPrefix("Auto-Installed:") { auto = line.dropFirst("Auto-Installed:".count).trimmingSpaces == "1" }
            }
            if let package, auto { automatic.insert(package) }
        }
        return automatic
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
