import EngineWire
import InstallEngine

extension DriverMessage {
    /// Decodes one line (without its newline) of the driver protocol.
    ///
    /// Members this version does not know are ignored, so a driver may send more than it needs
    /// to; a missing or mistyped member the message needs is an error naming it.
    /// - Throws: `DriverProtocolError` for a line that is not a JSON object, an unknown `type`,
    ///   a `hello` of another protocol version, a missing or mistyped member, a percent outside
    ///   0–100, an empty plan or a plan with an id twice.
    public static func decode(_ line: [UInt8]) throws(DriverProtocolError) -> DriverMessage {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw DriverProtocolError("not JSON: \(error)")
        }
        guard let object = value.objectValue else { throw DriverProtocolError("a line must be a JSON object") }
        let members = Members(object: object)
        let type = try members.string("type")
        switch type {
        case "hello":
            let version = try members.int("protocol")
            guard version == DriverProtocol.version else {
                throw DriverProtocolError("the driver speaks protocol \(version); this installtop speaks \(DriverProtocol.version)")
            }
            return .hello(DriverHello(protocolVersion: version, driver: try members.optionalString("driver") ?? "driver"))
        case "plan":
            return .plan(try decodePlan(members))
        case "started":
            return .started(try members.reference())
        case "progress":
            return .progress(DriverProgress(
                reference: try members.reference(), percent: try members.percent("percent"),
                message: try members.optionalString("message"), jobPercent: try members.percent("jobPercent")))
        case "output":
            let stream = try members.optionalString("stream") ?? "stdout"
            guard let standardStream = StandardStream(rawValue: stream) else {
                throw DriverProtocolError("\"stream\" must be \"stdout\" or \"stderr\"; got \(JSONObject.quoted(stream))")
            }
            return .output(DriverOutput(
                job: try members.string("job"), update: try members.optionalString("update"), stream: standardStream,
                line: try members.string("line")))
        case "reboot":
            return .reboot(try members.reference())
        case "finished":
            let word = try members.string("result")
            guard let result = DriverResult(rawValue: word) else {
                throw DriverProtocolError(
                    "\"result\" must be one of \(DriverResult.allCases.map(\.rawValue).joined(separator: ", ")); got \(JSONObject.quoted(word))")
            }
            return .finished(DriverFinished(
                reference: try members.reference(), result: result, reason: try members.optionalString("reason"),
                changed: try members.optionalBool("changed"),
                mark: try members.optionalString("mark").flatMap(UpdateResultMark.init(rawValue:)),
                check: try members.optionalBool("check") ?? false, ranOn: try members.optionalString("ranOn")))
        case "stopping":
            return .stopping(DriverStopping(job: try members.optionalString("job"), waitingFor: try members.strings("waitingFor") ?? []))
        case "jobEnded":
            return .jobEnded(DriverJobEnded(
                job: try members.string("job"), reason: try members.optionalString("reason"),
                notReached: try members.optionalBool("notReached") ?? false))
        default:
            throw DriverProtocolError("unknown \"type\" \(JSONObject.quoted(type))")
        }
    }

    private static func decodePlan(_ members: Members) throws(DriverProtocolError) -> DriverPlan {
        let operationWord = try members.optionalString("operation") ?? UpdateOperation.install.name
        guard let operation = UpdateOperation.allCases.first(where: { $0.name == operationWord }) else {
            throw DriverProtocolError("\"operation\" must be \"install\" or \"uninstall\"; got \(JSONObject.quoted(operationWord))")
        }
        guard let list = members.object["updates"]?.arrayValue else {
            throw DriverProtocolError("a plan needs \"updates\", an array")
        }
        guard !list.isEmpty else { throw DriverProtocolError("a plan needs at least one update") }
        var updates: [DriverPlannedUpdate] = []
        updates.reserveCapacity(list.count)
        var seen = Set<String>()
        for (position, item) in list.enumerated() {
            guard let object = item.objectValue else { throw DriverProtocolError("updates[\(position)] must be an object") }
            let update = Members(object: object, path: "updates[\(position)].")
            let id = try update.string("id")
            guard seen.insert(id).inserted else { throw DriverProtocolError("updates[\(position)]: the id \(JSONObject.quoted(id)) is in the plan twice") }
            let size = try update.optionalInt("size").map(Int64.init)
            updates.append(DriverPlannedUpdate(id: id, title: try update.optionalString("title"), size: size))
        }
        let job = try members.string("job")
        return DriverPlan(job: job, name: try members.optionalString("name") ?? job, operation: operation, updates: updates)
    }
}

/// Typed access to an object's members with errors that name the member (and where it is).
private struct Members {
    let object: JSONMembers
    var path = ""

    func string(_ key: String) throws(DriverProtocolError) -> String {
        guard let value = try optionalString(key) else { throw DriverProtocolError("\"\(path)\(key)\" is missing") }
        return value
    }

    func optionalString(_ key: String) throws(DriverProtocolError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw DriverProtocolError("\"\(path)\(key)\" must be a string") }
        return text
    }

    func int(_ key: String) throws(DriverProtocolError) -> Int {
        guard let value = try optionalInt(key) else { throw DriverProtocolError("\"\(path)\(key)\" is missing") }
        return value
    }

    func optionalInt(_ key: String) throws(DriverProtocolError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.intValue else { throw DriverProtocolError("\"\(path)\(key)\" must be a whole number") }
        return number
    }

    func optionalBool(_ key: String) throws(DriverProtocolError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw DriverProtocolError("\"\(path)\(key)\" must be true or false") }
        return flag
    }

    /// A number from 0 to 100, or `nil` when absent.
    func percent(_ key: String) throws(DriverProtocolError) -> Double? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.doubleValue, number >= 0, number <= 100 else {
            throw DriverProtocolError("\"\(path)\(key)\" must be a number from 0 to 100")
        }
        return number
    }

    func strings(_ key: String) throws(DriverProtocolError) -> [String]? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let items = value.arrayValue else { throw DriverProtocolError("\"\(path)\(key)\" must be an array of strings") }
        var texts: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw DriverProtocolError("\"\(path)\(key)\" must be an array of strings") }
            texts.append(text)
        }
        return texts
    }

    func reference() throws(DriverProtocolError) -> DriverUpdateReference {
        DriverUpdateReference(job: try string("job"), update: try string("update"))
    }
}
