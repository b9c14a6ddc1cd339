import CPosixSpawn

/// What happens to running updates when installtop itself dies of a fatal signal (SIGSEGV,
/// SIGABRT, SIGBUS …): their process groups get SIGKILL, so no install goes on unwatched, and the
/// process then dies of that signal (Documentation/CLI.md, "Signals").
///
/// The process backend records each child's process group while it runs (see
/// `cps_group_register`); this only installs the handlers.
public enum FatalSignalCleanup {
    /// Installs the handlers, replacing Swift's backtracer for those signals: a signal sent with
    /// `kill` would otherwise print a report and let the process go on. Call it once, early; a
    /// terminal adapter that installs its own crash handlers later (restoring the terminal
    /// first, then calling the previous handler) chains to it.
    /// - Returns: false when the kernel refused (the process then keeps the default handlers).
    @discardableResult
    public static func install() -> Bool {
        cps_install_fatal_signal_handlers() == 0
    }
}
