import APTTestSupport
import Foundation
import Glibc
import MonitorRuntime
import Testing

/// `ResidentCode.release` on this very process: its code pages leave the resident set, and
/// everything written at start (relocated data, the Swift runtime's metadata, globals) is intact.
@Suite("Resident code")
struct ResidentCodeTests {
    /// A global written at run time: it lives in a writable segment, which must be left alone.
    nonisolated(unsafe) static var written: [String: Int] = [:]

    @Test("release unmaps the never-written pages and breaks nothing: code runs, relocated data and globals are intact")
    func release() throws {
        Self.written = ["before": 1]
        let before = try #require(Self.fileBackedResidentKiB())
        let advised = ResidentCode.release()
        let after = try #require(Self.fileBackedResidentKiB())
        #expect(advised > 1 << 20, "only \(advised) bytes advised")
        // The test runner's own code alone is tens of megabytes mapped; what the reading of
        // smaps_rollup itself maps back is far less than what was released.
        #expect(after < before, "file-backed resident \(before) KiB before, \(after) KiB after")

        // Code, read-only data and relocated pointers work after the release: dynamic casts
        // and conformances (the runtime's metadata), Foundation's coders, formatting, globals.
        let values: [Any] = [1, "two", 3.0, ["four": 4]]
        #expect(values.compactMap { $0 as? any CustomStringConvertible }.count == 4)
        #expect(values[3] as? [String: Int] == ["four": 4])
        let data = try JSONEncoder().encode(["key": [1, 2, 3]])
        #expect(try JSONDecoder().decode([String: [Int]].self, from: data) == ["key": [1, 2, 3]])
        #expect(String(format: "%.2f", 3.14159) == "3.14")
        #expect(Self.written == ["before": 1])
        Self.written["after"] = 2
        #expect(Self.written.count == 2)
    }

    @Test("release gives malloc's free memory back: the pages of freed heap chunks leave the resident set")
    func freeHeap() throws {
        // 160 chunks of 96 KiB (below malloc's mmap threshold, so they are heap chunks), each
        // written whole; every other one is freed, so that each freed chunk lies between live
        // ones and stays a free chunk of its own (one next to a heap's top would merge into
        // it, which malloc_trim leaves alone in a thread's heap), whatever else this process
        // allocates meanwhile.
        let chunkSize = 96 << 10
        let chunks = (0..<160).map { _ in malloc(chunkSize)! }
        for chunk in chunks { memset(chunk, 0x5A, chunkSize) }
        let freed = chunks.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let kept = chunks.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        defer { for chunk in kept { free(chunk) } }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // The pages wholly inside each freed chunk but its first (malloc's own bookkeeping).
        let inner = freed.flatMap { chunk -> [Int] in
            let start = (Int(bitPattern: chunk) + 2 * page - 1) & ~(page - 1)
            let end = (Int(bitPattern: chunk) + chunkSize) & ~(page - 1)
            return Array(stride(from: start, to: end, by: page))
        }
        let residentBefore = try #require(Self.residentCount(inner, page: page))
        #expect(residentBefore > inner.count * 9 / 10, "\(residentBefore) of \(inner.count) pages resident after writing them")
        for chunk in freed { free(chunk) }
        ResidentCode.release()
        // Other tests of this process may take some of the freed memory meanwhile; most stays free.
        let residentAfter = try #require(Self.residentCount(inner, page: page))
        #expect(residentAfter < inner.count / 2, "\(residentAfter) of \(inner.count) freed pages still resident")
    }

    /// Set in the process of its own where the thresholds' probe runs.
    private static let probeVariable = "INSTALLTOP_MALLOC_THRESHOLDS_PROBE"
    private static var isProbeProcess: Bool { ProcessInfo.processInfo.environment[probeVariable] == "1" }

    /// The thresholds are for a process that fixes them as it starts, as the monitor does. In
    /// the test process, other tests have freed large blocks by then (raising the floating
    /// thresholds and leaving free chunks of megabytes in the heaps), and malloc serves a large
    /// request from such a chunk whatever its threshold says: in a full run the block came
    /// from a heap once. So the probe runs in a process of its own (this test binary, filtered
    /// to it), where the thresholds are fixed before anything large was allocated.
    @Test("with the thresholds kept, a large block is mapped on its own, also after one before it was freed (in a process of its own)",
          .enabled(if: !ResidentCodeTests.isProbeProcess))
    func largeAllocationsMapped() throws {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let probe = try TestCommand.run([testBinary, "--testing-library", "swift-testing", "--filter", "ResidentCodeTests/largeAllocationsMappedProbe"],
                                        environment: [Self.probeVariable: "1"])
        // Swift Testing reports on standard error.
        let report = probe.stdout + probe.stderr
        #expect(probe.status == 0, "the probe's process: \(report)")
        #expect(report.contains("Test \"probe: a large block is mapped on its own\" passed"), "the probe did not run, or failed: \(report)")
    }

    @Test("probe: a large block is mapped on its own", .enabled(if: ResidentCodeTests.isProbeProcess))
    func largeAllocationsMappedProbe() throws {
        ResidentCode.keepLargeAllocationsMapped()
        let size = 4 << 20
        // The first block freed is what makes glibc raise its thresholds when they float; the
        // second then came from a heap, where its pages stayed once freed. A block malloc
        // mapped on its own carries IS_MMAPPED (2) in its chunk's size word, just before it:
        // freeing it unmaps it.
        for round in 1...2 {
            let block = try #require(malloc(size))
            let sizeWord = block.load(fromByteOffset: -MemoryLayout<Int>.size, as: Int.self)
            free(block)
            #expect(sizeWord & 2 != 0, "round \(round): the block came from a heap (size word \(sizeWord))")
        }
    }

    /// How many of the pages at `addresses` are present in memory (bit 63 of each one's
    /// /proc/self/pagemap entry).
    private static func residentCount(_ addresses: [Int], page: Int) -> Int? {
        let descriptor = open("/proc/self/pagemap", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var present = 0
        for address in addresses {
            var entry: UInt64 = 0
            guard pread(descriptor, &entry, 8, off_t(address / page * 8)) == 8 else { return nil }
            if entry & (1 << 63) != 0 { present += 1 }
        }
        return present
    }

    /// Resident KiB backed by files (`Rss` less `Anonymous` in /proc/self/smaps_rollup).
    private static func fileBackedResidentKiB() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(name + ":") }?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        guard let rss = field("Rss"), let anonymous = field("Anonymous") else { return nil }
        return rss - anonymous
    }
}
