import Foundation
import InstallEngine
import Testing

/// Hostile manifests: aliases and merge keys that stand for billions of nodes, deep nesting,
/// huge files and tabs are refused with one located error naming the limit; real sizes load.
@Suite("Manifest limits")
struct ManifestLimitsTests {
    private static let path = "/nonexistent-installtop/m.yaml"

    private func errors(_ yaml: String) -> [String] {
        do {
            _ = try ManifestLoader.load(yaml: yaml, path: Self.path)
            return []
        } catch {
            return error.errors.map { "\($0.line):\($0.column): \($0.message)" }
        }
    }

    private static let tooLarge =
        "the manifest is too large once its aliases (*) and merge keys (<<) are expanded: more than 1,000,000 nodes"

    @Test("3,000 jobs aliasing a job of 3,000 aliased updates (54 KB, 9 million updates)")
    func aliasBomb() {
        var lines = ["defs:", "  u: &u {id: x, install: 'true'}", "  j: &j", "    name: J", "    updates:"]
        lines += Array(repeating: "      - *u", count: 3000)
        lines += ["jobs:"] + Array(repeating: "  - *j", count: 3000)
        #expect(errors(lines.joined(separator: "\n")) == ["2:17: \(Self.tooLarge)"], "at the anchor of the update aliased 9 million times")
    }

    @Test("nested merge keys, each level merging the one below ten times (611 bytes)")
    func mergeKeyBomb() {
        var parts = ["a0: &a0 {x: 1, y: 2}"]
        for level in 1...8 {
            parts.append("a\(level): &a\(level)\n  <<: [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        parts.append("jobs:\n  - name: j\n    <<: *a8\n    updates: [{id: z, install: 'true'}]")
        #expect(errors(parts.joined(separator: "\n")) == ["1:13: \(Self.tooLarge)"])
    }

    @Test("nesting deeper than 64 levels")
    func deepNesting() {
        let yaml = "jobs: " + String(repeating: "[", count: 80) + String(repeating: "]", count: 80)
        #expect(errors(yaml) == ["1:70: the manifest nests deeper than 64 levels (aliases expanded)"])
    }

    @Test("a file over 16 MiB is refused before it is parsed")
    func hugeFile() {
        let yaml = "jobs: []\n" + String(repeating: "# padding\n", count: 1_700_000)
        #expect(errors(yaml) == ["1:1: the manifest is larger than 16 MiB, the most installtop reads"])
    }

    @Test("a tab used to indent is named as such, where it is")
    func tabIndentation() {
        #expect(errors("jobs:\n\t- name: x\n") == ["2:1: a tab cannot indent YAML; indent with spaces"])
        #expect(errors("jobs:\n  - name: x\n    updates:\n\t  - id: y\n") == ["4:1: a tab cannot indent YAML; indent with spaces"])
    }

    @Test("10,000 updates written out load")
    func realSizeLoads() throws {
        var lines = ["jobs:"]
        for job in 0..<100 {
            lines.append("  - name: job \(job)\n    updates:")
            for update in 0..<100 {
                lines.append("      - id: u\(job)-\(update)\n        title: Update \(job) \(update)\n        install: [/bin/true, x]\n        size: 1000")
            }
        }
        let manifest = try ManifestLoader.load(yaml: lines.joined(separator: "\n"), path: Self.path)
        #expect(manifest.jobs.count == 100 && manifest.jobs.allSatisfy { $0.updates.count == 100 })
    }
}
