import InstallEngine

// The names the protocol uses for the engine's enums, read back.

extension UpdateOperation {
    /// The operation whose `name` is `text`.
    public static func named(_ text: String) -> UpdateOperation? { allCases.first { $0.name == text } }
}

extension RebootBehavior {
    public static func named(_ text: String) -> RebootBehavior? { allCases.first { $0.name == text } }
}

extension InstallationImpact {
    public static func named(_ text: String) -> InstallationImpact? { allCases.first { $0.name == text } }
}

extension HResult {
    /// Reads `0x%08X` (either case; the `0x` is required).
    public init?(text: String) {
        guard text.hasPrefix("0x") || text.hasPrefix("0X"), let value = UInt32(text.dropFirst(2), radix: 16) else { return nil }
        self.init(rawValue: value)
    }
}
