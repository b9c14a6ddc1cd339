import Glibc

/// One `observe` command for the engine, as a line of JSON: the event, who runs the
/// transaction, the lines apt or dpkg gave the hook, and how many were dropped before it.
/// Written by hand: EngineWire's writer would bring Foundation's start-up cost with it.
struct RelayMessage {
    let event: String
    let initiator: ObservedProcess?
    /// The status logger's dpkg had exited: `initiator` is whoever adopted the logger's shell.
    let dpkgGone: Bool
    let lines: [String]
    let dropped: Int

    var line: String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var text = "{\"command\":\"observe\",\"event\":\(Self.quoted(event))"
        text += ",\"sent\":\(Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000)"
        text += ",\"relay\":\(getpid())"
        if let initiator {
            text += ",\"initiator\":{\"pid\":\(initiator.pid),\"start\":\(initiator.startTicks),\"program\":\(Self.quoted(initiator.program))"
            text += ",\"commandLine\":[" + initiator.commandLine.map(Self.quoted).joined(separator: ",") + "]"
            text += ",\"uid\":\(initiator.uid),\"user\":\(Self.quoted(initiator.user)),\"terminal\":\(Self.quoted(initiator.terminal))"
            if initiator.dpkg != 0 { text += ",\"dpkg\":\(initiator.dpkg)" }
            if let marker = initiator.installtopRun { text += ",\"installtopRun\":\(Self.quoted(marker))" }
            text += "}"
        }
        if dpkgGone { text += ",\"dpkgGone\":true" }
        if dropped > 0 { text += ",\"dropped\":\(dropped)" }
        text += ",\"lines\":[" + lines.map(Self.quoted).joined(separator: ",") + "]}"
        return text
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
