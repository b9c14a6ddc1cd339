import EngineWire
import Foundation
import InstallDrivers
import InstallEngine
import Testing

/// The generic driver kind's manifest section and submission member (Documentation/MANIFESTS-AND-DRIVERS.md "Drivers from
/// manifests"): what a manifest says reaches the engine unchanged.
@Suite("Driver kind: manifest and submission")
struct DriverJobKindTests {
    static let kinds = JobKinds([DriverJobKind()])

    private func job(_ driver: String) throws -> ManifestJob {
        let manifest = try ManifestLoader.load(yaml: "jobs:\n  - name: d\n    driver: \(driver)\n", path: "/tmp/m.yaml",
                                               kinds: Self.kinds.all)
        return try #require(manifest.jobs.first)
    }

    @Test("command, env and workdir are read; workdir defaults to the manifest's folder; a string runs through /bin/sh -c")
    func manifest() throws {
        let argv = try job("{command: [/bin/echo, hi], env: {A: b}}")
        #expect(argv.kind?.spec(as: DriverJob.self) == DriverJob(command: ["/bin/echo", "hi"], environment: ["A": "b"], workingDirectory: "/tmp"))
        #expect(argv.updates.isEmpty)
        let shell = try job("{command: 'exec /bin/true', workdir: /}")
        #expect(shell.kind?.spec(as: DriverJob.self) == DriverJob(command: ["/bin/sh", "-c", "exec /bin/true"], workingDirectory: "/"))
    }

    @Test("a driver job and updates together are refused at updates")
    func withUpdates() {
        let thrown = #expect(throws: ManifestErrors.self) {
            try ManifestLoader.load(yaml: "jobs:\n  - name: d\n    driver: {command: [/bin/true]}\n    updates: [{id: a, install: x}]\n",
                                    path: "/tmp/m.yaml", kinds: Self.kinds.all)
        }
        #expect(thrown?.errors.map { "\($0.line):\($0.column): \($0.message)" }
            == ["4:5: job `d` has both `driver` and `updates`; a driver's jobs and updates are the ones it declares"])
    }

    @Test("a submission round-trips as a `driver` member; a command that names no program is a bad argument")
    func submission() throws {
        let spec = DriverJob(command: ["/opt/tool", "--apply"], environment: ["X": "1", "A": "\"q\""], workingDirectory: "/srv")
        let submission = JobSubmission(name: "tool", operation: .install, updates: [], stopOnFailure: false,
                                       kind: JobKindSpec(kind: DriverJobKind(), spec: spec))
        let members = try #require(try JSONParser.parse(submission.json).objectValue)
        #expect(members["driver"]?.objectValue?["command"] == .array([.string("/opt/tool"), .string("--apply")]))
        let read = try JobSubmission(WireObject(members, context: "job"), kinds: Self.kinds)
        #expect(read == submission)
        let empty = #"{"name":"n","operation":"install","updates":[],"driver":{"command":[]}}"#
        #expect(throws: WireError.self) {
            try JobSubmission(WireObject(try #require(try JSONParser.parse(empty).objectValue), context: "job"), kinds: Self.kinds)
        }
    }
}
