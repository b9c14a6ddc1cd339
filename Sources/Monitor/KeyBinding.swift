import TerminalUI

/// One line of the monitor's key map: the keys, what they do, and how the help and the footer
/// name them.
public struct KeyBinding: Sendable, Hashable {
    public let keys: [Key]
    public let action: MonitorAction
    /// How the help names the keys (`↑ ↓  k j`); `nil` for keys the help leaves out (Esc).
    public let helpKeys: String?
    /// What the help says they do.
    public let help: String
    /// The footer's hint (`a abort`), `nil` for none; `footerIfRoom` hints are left out when the
    /// footer would not fit.
    public let footer: String?
    public let footerIfRoom: Bool

    init(_ keys: [Key], _ action: MonitorAction, help helpKeys: String?, _ help: String,
         footer: String? = nil, footerIfRoom: Bool = false) {
        self.keys = keys
        self.action = action
        self.helpKeys = helpKeys
        self.help = help
        self.footer = footer
        self.footerIfRoom = footerIfRoom
    }
}
