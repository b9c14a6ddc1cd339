import Testing
import TextBasics

/// The hash that names files several processes must agree on.
@Suite("StableHash")
struct StableHashTests {
    @Test("FNV-1a's published values, 16 hex digits, leading zeros kept")
    func knownValues() {
        // FNV-1a 64 of "" is the offset basis; of "a" and "foobar" as published with the algorithm.
        #expect(StableHash.hex("") == "cbf29ce484222325")
        #expect(StableHash.hex("a") == "af63dc4c8601ec8c")
        #expect(StableHash.hex("foobar") == "85944171f73967e8")
        #expect(StableHash.hex("/etc/installtop/night.yaml").count == 16)
    }
}
