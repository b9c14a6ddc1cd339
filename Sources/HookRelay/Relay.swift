import Glibc

/// Reads the hook's input to its end and forwards it to the engine, one message per read for
/// the status logger (dpkg's lines arrive live), one for the whole plan.
struct Relay {
    let arguments: RelayArguments
    private var connection: EngineConnection?
    private var initiator: ObservedProcess?
    /// dpkg's status logger found no dpkg above it: see `dpkgGone(_:_:)`.
    private var dpkgGone = false
    /// Lines read but not delivered (no engine, or its socket full), reported with the next
    /// message that gets through.
    private var dropped = 0

    init(arguments: RelayArguments) {
        self.arguments = arguments
    }

    mutating func run() {
        guard let event = arguments.event, let socket = arguments.socket else {
            Self.drain()
            return
        }
        connection = EngineConnection(path: socket)
        initiator = connection == nil ? nil : ObservedProcess.initiator(ofParentOf: getpid())
        dpkgGone = Self.dpkgGone(event, initiator)
        switch event {
        case "status":
            forwardLive(event)
        case "plan":
            send(event, lines: Self.planLines(Self.readAll()))
        default:
            send(event, lines: Self.readAll().split(separator: "\n").map(String.init))
        }
        connection?.finish()
    }

    /// Forwards each read's complete lines as they come: dpkg writes a few status lines per
    /// package step, so one message per read keeps them live without a message per line.
    private mutating func forwardLive(_ event: String) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if connection == nil { continue }
            pending.append(contentsOf: buffer[0..<count])
            guard let last = pending.lastIndex(of: 0x0A) else { continue }
            let lines = pending[..<last].split(separator: 0x0A, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
            pending.removeSubrange(...last)
            send(event, lines: lines)
        }
    }

    private mutating func send(_ event: String, lines: [String]) {
        guard let connection else { return }
        let message = RelayMessage(event: event, initiator: initiator, dpkgGone: dpkgGone, lines: lines, dropped: dropped)
        if connection.send(message.line) {
            dropped = 0
        } else {
            dropped += max(lines.count, 1)
        }
    }

    /// Whether the walk up from dpkg's status logger found no dpkg: dpkg never waits for its
    /// logger, and a short dpkg run (apt configures an Essential package in a run of its own) can
    /// exit before a relay slow to start looks at `/proc`. The logger's shell is then adopted,
    /// by init (no initiator at all) or by a subreaper above apt (an `installtop apt` process,
    /// `systemd --user`), which the walk takes for the initiator; the engine must not make a
    /// transaction of it (`"dpkgGone":true`). dpkg run by hand is its own initiator.
    static func dpkgGone(_ event: String, _ initiator: ObservedProcess?) -> Bool {
        guard event == "status", let initiator else { return false }
        return initiator.dpkg == 0 && initiator.program != "dpkg"
    }

    /// Of apt's version 3 hook input (its configuration, a blank line, then one line per
    /// package), what the engine reads: the command line, dpkg's status file, dpkg's `--root`
    /// and `--admindir` options, and the packages.
    static func planLines(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let blank = lines.firstIndex(of: "") else { return [] }
        let kept = ["CommandLine::AsString=", "Dir::State::status=", "VERSION ", "DPkg::Options::=--root=", "DPkg::Options::=--admindir="]
        let header = lines[..<blank].filter { line in kept.contains { line.hasPrefix($0) } }
        return (header + lines[(blank + 1)...].filter { !$0.isEmpty }).map(String.init)
    }

    /// Everything on stdin.
    private static func readAll() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads stdin to its end and throws it away.
    static func drain() {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
        }
    }
}
