/// An error code with WUA's numeric values, printed as `0x%08X`.
public struct HResult: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// S_OK
    public static let ok = HResult(rawValue: 0)
    /// WU_E_NO_UPDATE: the update list was empty (rule 1).
    public static let noUpdate = HResult(rawValue: 0x8024_0024)
    /// WU_E_INSTALL_NOT_ALLOWED: the installer is busy with another job (rule 3).
    public static let installNotAllowed = HResult(rawValue: 0x8024_0016)
    /// WU_E_EXCLUSIVE_INSTALL_CONFLICT: an exclusive update mixed with others (rule 2).
    public static let exclusiveInstallConflict = HResult(rawValue: 0x8024_0019)
    /// WU_E_INVALID_OPERATION
    public static let invalidOperation = HResult(rawValue: 0x8024_0036)
    /// WU_E_CALL_CANCELLED: the update never started because of an abort.
    public static let callCancelled = HResult(rawValue: 0x8024_000B)
    /// WU_E_UH_OPERATIONCANCELLED: a running update was stopped by an abort.
    public static let operationCancelled = HResult(rawValue: 0x8024_2008)
    /// WU_E_UH_INSTALLERHUNG: the update ran past its timeout.
    public static let installerHung = HResult(rawValue: 0x8024_2007)
    /// WU_E_UH_INSTALLERFAILURE: non-zero exit, a signal, or a command that could not start.
    public static let installerFailure = HResult(rawValue: 0x8024_200B)
    /// WU_E_UH_UNEXPECTED: the update was cut and its installer's repair did not succeed, so
    /// the system is left broken (dpkg after a forced apt abort); its own exit status, 5.
    public static let systemLeftBroken = HResult(rawValue: 0x8024_2FFF)
    /// WU_E_ALL_UPDATES_FAILED: every update of the job failed.
    public static let allUpdatesFailed = HResult(rawValue: 0x8024_0022)

    /// `0x80240024`
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}
