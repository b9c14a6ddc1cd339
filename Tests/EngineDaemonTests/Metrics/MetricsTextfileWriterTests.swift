import EngineDaemon
import Foundation
import Glibc
import Synchronization
import Testing

/// The textfile replaced whole: a reader never sees a part, the file is mode 0644 and no
/// temporary file stays behind.
@Suite("Metrics: the textfile writer")
struct MetricsTextfileWriterTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "itop-metrics-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("writes installtop.prom of mode 0644 with the text, and leaves nothing else in the directory")
    func writes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = MetricsTextfileWriter(directory: directory)
        // mkstemp makes the file 0600 whatever the umask, so 0644 is the writer's own chmod,
        // which node_exporter's user needs. The umask is left alone: it is the whole test
        // process's, and a test that set 0o077 here made another's dpkg-deb tree 0700 (refused).
        try writer.write("first\n")
        try writer.write("second\n")
        #expect(writer.path == directory + "/installtop.prom")
        #expect(try String(contentsOfFile: writer.path, encoding: .utf8) == "second\n")
        var info = stat()
        #expect(stat(writer.path, &info) == 0 && info.st_mode & 0o7777 == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["installtop.prom"])
    }

    @Test("a missing directory is an error naming it and the reason")
    func missingDirectory() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.removeItem(atPath: directory)
        #expect(throws: MetricsTextfileError("cannot write a file in \(directory): No such file or directory")) {
            try MetricsTextfileWriter(directory: directory).write("x\n")
        }
    }

    @Test("a reader polling while the file is rewritten 300 times sees only whole contents")
    func readersNeverSeeAPart() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = MetricsTextfileWriter(directory: directory)
        // Long enough to take several write calls' worth of time, of different lengths, so a
        // file written in place would be seen short or mixed.
        let contents = (0..<3).map { index in String(repeating: "installtop_test_line{n=\"\(index)\"} \(index)\n", count: 4_000 + index * 3_000) }
        try writer.write(contents[0])
        let done = Atomic(false)
        let seen = Mutex<(reads: Int, wrong: [Int])>((0, []))
        let reader = Thread {
            while !done.load(ordering: .acquiring) {
                guard let text = try? String(contentsOfFile: writer.path, encoding: .utf8) else { continue }
                seen.withLock { seen in
                    seen.reads += 1
                    if !contents.contains(text) { seen.wrong.append(text.utf8.count) }
                }
            }
        }
        reader.start()
        // Also when a write throws: the reader must not outlive the test.
        defer { done.store(true, ordering: .releasing) }
        for round in 1...300 { try writer.write(contents[round % contents.count]) }
        // Let the reader read at least once more after the last write before it stops.
        let reads = seen.withLock(\.reads)
        let deadline = ContinuousClock.now + .seconds(60)
        while seen.withLock(\.reads) < reads + 2, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
        let (readCount, wrong) = seen.withLock { $0 }
        #expect(readCount > 0)
        #expect(wrong.isEmpty, "partial or mixed reads of \(wrong.prefix(5)) bytes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["installtop.prom"])
    }
}
