/// Why the installer refused a call. Each carries WUA's HResult.
public enum InstallerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Rule 1: the update list was empty.
    case noUpdate
    /// Rule 2: an exclusive update was mixed with others.
    case exclusiveInstallConflict
    /// Rule 3: the installer is running another job.
    case installNotAllowed
    /// Rules 14–15: a job from another installer, install/uninstall mismatch, or `cleanUp`
    /// called from inside one of the job's own callbacks. The text says which.
    case invalidOperation(String)
    /// `cleanUp(timeout:)` gave up waiting.
    case timedOut
    /// An update of an install job has no install command (or of an uninstall job, no
    /// uninstall command).
    case missingCommand(updateID: String, operation: UpdateOperation)

    public var hResult: HResult {
        switch self {
        case .noUpdate: return .noUpdate
        case .exclusiveInstallConflict: return .exclusiveInstallConflict
        case .installNotAllowed: return .installNotAllowed
        case .invalidOperation, .missingCommand: return .invalidOperation
        case .timedOut: return .invalidOperation
        }
    }

    public var description: String {
        switch self {
        case .noUpdate: return "the update list is empty (\(HResult.noUpdate))"
        case .exclusiveInstallConflict:
            return "an exclusive update must be installed alone (\(HResult.exclusiveInstallConflict))"
        case .installNotAllowed:
            return "the installer is busy with another job (\(HResult.installNotAllowed))"
        case .invalidOperation(let why): return "\(why) (\(HResult.invalidOperation))"
        case .timedOut: return "timed out waiting for the job to complete"
        case .missingCommand(let id, let operation):
            return "update \(id) has no \(operation.name) command"
        }
    }
}
