import InstallEngine

/// What installtop-relay sends for one hook call: `{"command":"observe","event":"status",
/// "sent":MICROSECONDS,"relay":PID,"initiator":{…},"dpkgGone":true,"dropped":N,"lines":[…]}`
/// (rule 28; `dpkgGone` and `dropped` only when they say something). The engine never replies:
/// the relay does not read its socket.
public struct ObservedReport: Sendable, Hashable {
    public enum Event: String, Sendable, Hashable {
        /// apt's `DPkg::Pre-Invoke`: a transaction begins.
        case begin
        /// apt's `DPkg::Pre-Install-Pkgs` (version 3): the plan.
        case plan
        /// dpkg's status logger: `processing: …` and `status: …` lines, live.
        case status
        /// apt's `DPkg::Post-Invoke`: its dpkg runs are over.
        case end
    }

    public var event: Event
    /// Who runs the transaction; `nil` when the relay could not read `/proc`.
    public var initiator: ObservedInitiator?
    /// The dpkg process between the hook and the initiator (the status logger's parent).
    public var dpkg: Int32?
    /// Status lines whose dpkg had exited before the relay looked for it in `/proc` (a short
    /// dpkg run, a relay slow to start on a loaded machine): dpkg never waits for its status
    /// logger, so the logger's shell was adopted, by init or by a subreaper above apt (an
    /// `installtop apt` process, `systemd --user`), and `initiator` is that adopter, not the
    /// process that runs the transaction (`"dpkgGone":true`).
    public var dpkgGone: Bool
    /// When the relay sent it, microseconds since the epoch (for the latency benchmark).
    public var sentMicroseconds: Int64
    /// Lines the relay could not deliver before this message (no engine, a full socket).
    public var dropped: Int
    /// For a plan: `CommandLine::AsString=`, `Binary=`, `Dir::State::status=` and one line per
    /// package of apt's version 3 format; for status: dpkg's lines.
    public var lines: [String]

    public init(event: Event, initiator: ObservedInitiator?, dpkg: Int32? = nil, dpkgGone: Bool = false, sentMicroseconds: Int64 = 0,
                dropped: Int = 0, lines: [String]) {
        self.event = event
        self.initiator = initiator
        self.dpkg = dpkg
        self.dpkgGone = dpkgGone
        self.sentMicroseconds = sentMicroseconds
        self.dropped = dropped
        self.lines = lines
    }

    /// Reads the members of an `observe` command.
    /// - Throws: `badArgument` naming the member at fault.
    public init(_ object: WireObject) throws(WireError) {
        event = try object.name("event", Event.init(rawValue:), expected: "begin, plan, status or end")
        initiator = try ObservedInitiatorCoding.decode(from: object, key: "initiator")
        dpkg = (object.members["initiator"]?.objectValue?["dpkg"]?.intValue).map { Int32(clamping: $0) }
        dpkgGone = try object.bool("dpkgGone", default: false)
        sentMicroseconds = Int64(try object.optionalInt("sent") ?? 0)
        dropped = try object.optionalInt("dropped") ?? 0
        lines = try object.strings("lines")
    }

    /// Adds the members to an `observe` command object.
    public func add(to object: inout JSONObject) {
        object.add("event", event.rawValue)
        object.add("sent", sentMicroseconds)
        if let initiator {
            var json = ObservedInitiatorCoding.json(initiator)
            if let dpkg { json = String(json.dropLast()) + ",\"dpkg\":\(dpkg)}" }
            object.addRaw("initiator", json)
        }
        if dpkgGone { object.add("dpkgGone", true) }
        if dropped > 0 { object.add("dropped", dropped) }
        object.add("lines", strings: lines)
    }
}
