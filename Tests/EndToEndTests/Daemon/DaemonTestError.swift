import Glibc

/// Why a daemon-mode test helper gave up; thrown so the test fails with the reason.
enum DaemonTestError: Error, CustomStringConvertible {
    /// socket(2), connect(2), send(2) or read(2) failed.
    case socket(String, errno: Int32)
    /// The engine closed the connection before the awaited line came.
    case closed(waitingFor: String, received: [String])
    /// The awaited line did not come in time.
    case timedOut(waitingFor: String, received: [String])

    var description: String {
        switch self {
        case .socket(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        case .closed(let what, let received):
            return "the engine closed the connection while waiting for \(what); the last lines were:\n"
                + received.suffix(20).joined(separator: "\n")
        case .timedOut(let what, let received):
            return "timed out waiting for \(what); the last lines were:\n" + received.suffix(20).joined(separator: "\n")
        }
    }
}
