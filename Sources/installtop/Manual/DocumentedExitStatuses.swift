/// A command that says its own exit statuses for its man page's EXIT STATUS section, so that a
/// kind's command folder holds them (`DNFExitStatuses`); the other commands' are in
/// `ManualExitStatuses`.
protocol DocumentedExitStatuses {
    /// What each exit status means for the command, in order.
    static var exitStatuses: [(status: Int32, meaning: String)] { get }
}
