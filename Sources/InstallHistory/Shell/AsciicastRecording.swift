#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// An asciicast v2 recording read back: its header and its events in the file's order.
public struct AsciicastRecording: Sendable, Hashable {
    /// Why a file is not a recording this reader can play: the line and what was expected.
    public struct ReadError: Error, Sendable, CustomStringConvertible, Hashable {
        public var file: String
        public var line: Int
        public var problem: String
        public var description: String { "\(file):\(line): \(problem)" }
    }

    public var header: AsciicastHeader
    public var events: [AsciicastEvent]

    public init(header: AsciicastHeader, events: [AsciicastEvent]) {
        self.header = header
        self.events = events
    }

    /// Reads the recording at `path`.
    /// - Throws: `ReadError` (line 0 when the file cannot be read at all).
    public static func read(path: String) throws(ReadError) -> AsciicastRecording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(file: path, line: 0, problem: "cannot read the file (\(String(cString: strerror(errno))))")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// Reads a recording from its text. A last line cut short (the recorder died while writing
    /// it) is left out rather than refused; any other line that is not an event is an error.
    /// - Parameter file: the name errors give.
    public static func parse(_ text: String, file: String) throws(ReadError) -> AsciicastRecording {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw ReadError(file: file, line: 1, problem: "empty: expected an asciicast v2 header") }
        let header = try Self.header(first, file: file)
        var events: [AsciicastEvent] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            do {
                events.append(try event(line, file: file, number: index + 1))
            } catch {
                if index == lines.count - 1, !text.hasSuffix("\n") { break }
                throw error
            }
        }
        return AsciicastRecording(header: header, events: events)
    }

    private static func header(_ line: Substring, file: String) throws(ReadError) -> AsciicastHeader {
        guard let object = try? JSONDecoder().decode(AsciicastHeaderFields.self, from: Data(line.utf8)) else {
            throw ReadError(file: file, line: 1, problem: "expected an asciicast header (a JSON object)")
        }
        guard object.version == 2 else {
            throw ReadError(file: file, line: 1, problem: "expected \"version\": 2 (asciicast v2)")
        }
        guard let width = object.width, let height = object.height else {
            throw ReadError(file: file, line: 1, problem: "expected \"width\" and \"height\" as numbers")
        }
        return AsciicastHeader(width: width, height: height, timestamp: object.timestamp, environment: object.env ?? [:], title: object.title)
    }

    private static func event(_ line: Substring, file: String, number: Int) throws(ReadError) -> AsciicastEvent {
        guard let fields = try? JSONDecoder().decode(AsciicastEventFields.self, from: Data(line.utf8)), fields.time >= 0 else {
            throw ReadError(file: file, line: number, problem: "expected an event: [seconds, \"o\", \"text\"]")
        }
        return AsciicastEvent(time: fields.time, code: AsciicastEvent.Code(fields.code), data: fields.data)
    }
}
