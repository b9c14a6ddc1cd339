import InstallEngine
import Testing

@Suite("Manifest tags: what a plain, quoted or tagged scalar is to the manifest reader")
struct ManifestTagTests {
    @Test("in a manifest, a written tag wins over the text, quoted text stays text, and `<<` still merges")
    func manifestTags() throws {
        let written = """
            jobs:
              - name: J
                stop_on_failure: !!str yes
                updates: [{id: a, install: x}]
            """
        let errors = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(yaml: written, path: "m.yaml") }
        #expect(errors?.errors.map(\.message) == ["expected true or false; got `yes`"])

        let quoted = """
            jobs:
              - name: J
                stop_on_failure: "yes"
                updates: [{id: a, install: x}]
            """
        let quotedErrors = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(yaml: quoted, path: "m.yaml") }
        #expect(quotedErrors?.errors.map(\.message) == ["expected true or false; got the quoted string `yes`"])

        let merged = """
            jobs:
              - &first
                name: A
                stop_on_failure: on
                updates: [{id: a, install: x}]
              - <<: *first
                name: B
                updates: [{id: b, install: x}]
            """
        #expect(try ManifestLoader.load(yaml: merged, path: "m.yaml").jobs[1].stopOnFailure)
    }
}
