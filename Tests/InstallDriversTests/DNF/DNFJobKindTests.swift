import EngineWire
import Foundation
import InstallEngine
import Testing

@testable import InstallDrivers

/// A manifest's `dnf:` section and a submission's `"dnf"` member: every request dnf jobs take,
/// each mistake at its line, and the round trip of a submission.
@Suite("dnf: the kind's manifest section and submission")
struct DNFJobKindTests {
    private let kind = DNFJobKind(helperFolder: DNFHelperFolder(files: []))
    private var kinds: JobKinds { JobKinds([APTJobKind(), kind]) }

    private func load(_ section: String) throws -> ManifestJob? {
        let yaml = "jobs:\n  - name: Patch\n    dnf: \(section)\n"
        return try ManifestLoader.load(yaml: yaml, path: "/tmp/patch.yaml", kinds: kinds.all).jobs.first
    }

    private func errors(_ section: String) -> [String] {
        do {
            _ = try load(section)
            return []
        } catch let errors as ManifestErrors {
            return errors.errors.map { "\($0.line):\($0.column): \($0.message)" }
        } catch {
            return ["\(error)"]
        }
    }

    @Test("install, upgrade of everything or of some, remove; an installroot relative to the manifest")
    func requests() throws {
        #expect(try load("{install: [curl, jq]}")?.kind?.spec(as: DNFJob.self) == DNFJob(request: .install(["curl", "jq"])))
        #expect(try load("{upgrade: true}")?.kind?.spec(as: DNFJob.self) == DNFJob(request: .upgrade([])))
        #expect(try load("{upgrade: [openssl]}")?.kind?.spec(as: DNFJob.self) == DNFJob(request: .upgrade(["openssl"])))
        let removal = try load("{remove: [telnet], installroot: ., releasever: \"9\"}")
        #expect(removal?.kind?.spec(as: DNFJob.self) == DNFJob(request: .remove(["telnet"]), installRoot: "/tmp", releaseVersion: "9"))
        #expect(removal?.kind?.operation == .uninstall)
        #expect(removal?.kind?.description == "dnf remove telnet")
    }

    @Test("Mistakes are said at their line: no request, two, an empty list, a root that is no folder, an unknown key")
    func mistakes() {
        #expect(errors("{}") == ["3:10: expected one of install, upgrade or remove in dnf; got none"])
        #expect(errors("{install: [a], remove: [b]}") == ["3:10: expected one of install, upgrade or remove in dnf; got 2"])
        #expect(errors("{install: []}") == ["3:20: `install` names no package"])
        #expect(errors("{install: [a], installroot: /nonexistent-root}") == ["3:38: installroot `/nonexistent-root` is not a folder"])
        #expect(errors("{install: [a], chroot: /}").first?.contains("unknown key `chroot` in dnf") == true)
    }

    @Test("A submission's dnf member reads back as it was written; a member with two requests is refused")
    func submission() throws {
        let job = DNFJob(request: .upgrade(["openssl"]), installRoot: "/srv/image", releaseVersion: "9")
        var object = JSONObject()
        kind.encode(job, into: &object)
        let text = String(decoding: object.bytes, as: UTF8.self)
        #expect(text == #"{"upgrade":["openssl"],"installroot":"/srv/image","releasever":"9"}"#)
        let parsed = try #require(try JSONParser.parse(text).objectValue)
        #expect(try kind.decode(WireObject(parsed, context: "jobs[0].dnf")) == job)
        let both = try #require(try JSONParser.parse(#"{"install":["a"],"remove":["b"]}"#).objectValue)
        #expect(throws: WireError.self) { try kind.decode(WireObject(both, context: "jobs[0].dnf")) }
    }
}
