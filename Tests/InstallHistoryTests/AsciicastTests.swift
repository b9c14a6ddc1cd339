import Foundation
@testable import InstallHistory
import Testing

/// The recording of a shell on a host (asciicast v2) on values: text cut anywhere and bytes
/// that are not UTF-8, JSON that stays valid, a file written and read back, the pauses a
/// player keeps.
@Suite("Asciicast recordings")
struct AsciicastTests {
    private let folder = TemporaryFolder()

    // MARK: - Bytes to text

    @Test("A character cut between two reads comes out whole with the second; nothing comes out for a read holding only its start")
    func cutCharacterStaysWhole() {
        var decoder = UTF8StreamDecoder()
        let euro = Array("€".utf8)  // E2 82 AC
        #expect(decoder.decode([UInt8(ascii: "a")] + euro[..<1]) == "a")
        #expect(decoder.decode(euro[1..<2]) == "")
        #expect(decoder.decode(euro[2...] + [UInt8(ascii: "b")]) == "€b")
        let smile = Array("😀".utf8)
        #expect(decoder.decode(smile[..<3]) == "")
        #expect(decoder.decode(smile[3...]) == "😀")
        #expect(decoder.finish() == "")
    }

    @Test("Bytes that are not UTF-8 become U+FFFD, and a character left cut at the end of the stream too")
    func invalidBytesAreReplaced() {
        var decoder = UTF8StreamDecoder()
        #expect(decoder.decode([0xFF, 0xFE, 0x20, 0x62, 0xC0, 0xAF]) == "\u{FFFD}\u{FFFD} b\u{FFFD}\u{FFFD}")
        // A lone continuation byte can complete nothing: it is replaced at once.
        #expect(decoder.decode([0x80]) == "\u{FFFD}")
        #expect(decoder.decode([0x41, 0xE2, 0x82]) == "A")
        #expect(decoder.finish() == "\u{FFFD}")
        #expect(decoder.decode([0x42]) == "B")
    }

    // MARK: - JSON

    @Test("Every control character, quotes and backslashes are escaped; a line parses back to the text it was made of")
    func textIsValidJSON() throws {
        let text = "\u{1B}[31mred\u{1B}[0m \"quoted\" back\\slash\ttab\r\n\u{00}\u{07}\u{7F}\u{FFFD} é 😀"
        let line = AsciicastEvent(time: 1.5, code: .output, data: text).jsonLine
        #expect(line.hasPrefix("[1.500000, \"o\", \"\\u001b[31mred"))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "no raw control character in \(line)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
        #expect(parsed[2] as? String == text)
        #expect(AsciicastText.seconds(0) == "0.000000" && AsciicastText.seconds(12.0000004) == "12.000000"
                && AsciicastText.seconds(3.25) == "3.250000" && AsciicastText.seconds(-1) == "0.000000")
    }

    @Test("The header has version 2, the size, the start, the environment and the title, and parses as JSON")
    func headerLine() throws {
        let header = AsciicastHeader(width: 120, height: 40, timestamp: 1_795_800_000,
                                     environment: ["TERM": "xterm-256color", "SHELL": "/bin/bash"], title: "shell on \"web1\"")
        #expect(header.jsonLine == """
            {"version": 2, "width": 120, "height": 40, "timestamp": 1795800000, "env": {"SHELL": "/bin/bash", "TERM": "xterm-256color"}, "title": "shell on \\"web1\\""}
            """)
        let recording = try AsciicastRecording.parse(header.jsonLine + "\n", file: "h.cast")
        #expect(recording.header == header && recording.events.isEmpty)
    }

    // MARK: - A file

    @Test("Written and read back: the header, the output with its times, a resize; invalid UTF-8 and a cut character as the player sees them; mode 0600")
    func writtenAndReadBack() throws {
        let path = folder.file("1.cast")
        let writer = try AsciicastWriter(path: path, header: AsciicastHeader(width: 80, height: 24, timestamp: 1000, title: "shell on h1"))
        writer.output(Array("h1$ ".utf8), at: 0.01)
        writer.output(Array("ls\r\nbin\u{1B}[0m ".utf8) + [0xFF, 0xE2, 0x82], at: 1.25)
        writer.resize(columns: 100, rows: 30, at: 2)
        writer.output([0xAC], at: 2.5)
        writer.output([0xF0, 0x9F], at: 3)
        writer.finish(at: 3.5)
        #expect(writer.failure == nil)

        let recording = try AsciicastRecording.read(path: path)
        #expect(recording.header == AsciicastHeader(width: 80, height: 24, timestamp: 1000, title: "shell on h1"))
        #expect(recording.events == [
            AsciicastEvent(time: 0.01, code: .output, data: "h1$ "),
            AsciicastEvent(time: 1.25, code: .output, data: "ls\r\nbin\u{1B}[0m \u{FFFD}"),
            AsciicastEvent(time: 2, code: .resize, data: "100x30"),
            AsciicastEvent(time: 2.5, code: .output, data: "€"),
            AsciicastEvent(time: 3.5, code: .output, data: "\u{FFFD}"),
        ])
        #expect(recording.events[2].size?.columns == 100 && recording.events[2].size?.rows == 30)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Each line is a JSON value of its own.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
        // Never over an existing file.
        #expect(throws: AsciicastWriter.Failure.self) { try AsciicastWriter(path: path, header: recording.header) }
    }

    @Test("A last line cut short (the recorder died writing it) is left out; a bad line before the end, a v1 header or an empty file are refused with their line")
    func damagedFiles() throws {
        let header = AsciicastHeader(width: 80, height: 24, timestamp: nil).jsonLine
        let cut = try AsciicastRecording.parse(header + "\n[0.5, \"o\", \"one\"]\n[0.7, \"o\", \"tw", file: "cut.cast")
        #expect(cut.events == [AsciicastEvent(time: 0.5, code: .output, data: "one")])
        #expect(throws: AsciicastRecording.ReadError(file: "bad.cast", line: 2, problem: "expected an event: [seconds, \"o\", \"text\"]")) {
            try AsciicastRecording.parse(header + "\n[0.5, \"o\"]\n[0.7, \"o\", \"two\"]\n", file: "bad.cast")
        }
        #expect(throws: AsciicastRecording.ReadError(file: "v1.cast", line: 1, problem: "expected \"version\": 2 (asciicast v2)")) {
            try AsciicastRecording.parse("{\"version\": 1, \"width\": 80, \"height\": 24, \"stdout\": []}\n", file: "v1.cast")
        }
        #expect(throws: AsciicastRecording.ReadError.self) { try AsciicastRecording.parse("", file: "empty.cast") }
        #expect(throws: AsciicastRecording.ReadError.self) { try AsciicastRecording.read(path: folder.file("missing.cast")) }
    }

    // MARK: - Playing

    @Test("The schedule keeps the pauses, divided by the speed, each cut to the idle limit; input and resizes are not played; instant plays all at 0")
    func schedule() {
        let recording = AsciicastRecording(header: AsciicastHeader(width: 80, height: 24, timestamp: nil), events: [
            AsciicastEvent(time: 0.5, code: .output, data: "a"),
            AsciicastEvent(time: 0.6, code: .input, data: "secret"),
            AsciicastEvent(time: 1.5, code: .output, data: "b"),
            AsciicastEvent(time: 11.5, code: .resize, data: "100x30"),
            AsciicastEvent(time: 11.5, code: .output, data: "c"),
            AsciicastEvent(time: 11.0, code: .output, data: "d"),
        ])
        #expect(AsciicastSchedule(recording).steps.map(\.at) == [0.5, 1.5, 11.5, 11.5])
        #expect(AsciicastSchedule(recording).steps.map(\.data) == ["a", "b", "c", "d"])
        #expect(AsciicastSchedule(recording, speed: 2).steps.map(\.at) == [0.25, 0.75, 5.75, 5.75])
        #expect(AsciicastSchedule(recording, idleLimit: 2).steps.map(\.at) == [0.5, 1.5, 3.5, 3.5])
        #expect(AsciicastSchedule(recording, speed: .infinity).steps.map(\.at) == [0, 0, 0, 0])
    }

    // MARK: - In the history

    @Test("A shell is a run of kind shell with one row: succeeded for exit 0; failed with ssh's words for 255; its recording in shells/ (0700), NAME.shells/ beside another name")
    func shellRuns() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let start = Date(timeIntervalSince1970: 1_795_800_000)
        let ok = try store.reserveShellRun(host: "web1", startedAt: start)
        #expect(store.shellRecording(run: ok) == folder.file("shells/\(ok).cast"))
        let mode = try FileManager.default.attributesOfItem(atPath: folder.file("shells"))[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let running = try #require(try store.jobRun(ok))
        #expect(running.kind == "shell" && running.name == "shell on web1" && running.endedAt == nil && !running.isPackageJob)
        try store.finishShellRun(ok, host: "web1", startedAt: start, endedAt: start + 42, exitStatus: 0, reason: "web1$ exit")
        let failed = try store.reserveShellRun(host: "down", startedAt: start + 50)
        try store.finishShellRun(failed, host: "down", startedAt: start + 50, endedAt: start + 50.2, exitStatus: 255,
                                 reason: "ssh: connect to host down port 22: Connection refused")

        let runs = try store.jobRuns()
        #expect(runs.map(\.id) == [failed, ok])
        #expect(runs.map(\.resultCode) == [.failed, .succeeded])
        #expect(runs[1].endedAt == start + 42)
        #expect(runs[1].notUndoableBecause == "a shell on a host changes nothing installtop can put back: installtop replay \(ok) plays it")
        let rows = try store.entries(updateID: "shell")
        #expect(rows.map(\.jobName) == ["down", "web1"])
        #expect(rows.map(\.unmappedResultCode) == [255, 0])
        #expect(rows.map(\.reason) == ["ssh: connect to host down port 22: Connection refused", nil])
        #expect(rows[1].duration == .seconds(42))

        #expect(HistoryStore.shellFolder(forDatabase: "/var/lib/x/fleet.db") == "/var/lib/x/fleet.db.shells")
    }
}
