#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// An observed job's initiator as the history keeps it (the `observedBy` column): a JSON
/// object with the field names of the wire's `observedBy` (`pid`, `start`, `program`,
/// `commandLine`, `uid`, `user`, `terminal`, `admindir`, `dpkgLog`).
enum ObservedInitiatorText {
    private struct Fields: Codable {
        var pid: Int32
        var start: UInt64
        var program: String
        var commandLine: [String]
        var uid: UInt32
        var user: String
        var terminal: String
        var admindir: String?
        var dpkgLog: String?
    }

    static func text(of initiator: ObservedInitiator) -> String {
        let fields = Fields(
            pid: initiator.pid, start: initiator.startTicks, program: initiator.program, commandLine: initiator.commandLine,
            uid: initiator.uid, user: initiator.user, terminal: initiator.terminal, admindir: initiator.administrativeDirectory,
            dpkgLog: initiator.dpkgLog)
        // Encoding strings and numbers cannot fail.
        return (try? SortedKeysJSON.text(of: fields)) ?? "{}"
    }

    /// The initiator the text names; `nil` when it is not such an object.
    static func initiator(from text: String) -> ObservedInitiator? {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(text.utf8)) else { return nil }
        return ObservedInitiator(
            pid: fields.pid, startTicks: fields.start, program: fields.program, commandLine: fields.commandLine, uid: fields.uid,
            user: fields.user, terminal: fields.terminal, administrativeDirectory: fields.admindir, dpkgLog: fields.dpkgLog)
    }
}
