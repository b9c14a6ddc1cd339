import Glibc

/// What the apt and dpkg hooks of `installtop hooks install` run for every apt and dpkg call
/// (Documentation/OBSERVED-JOBS.md, rule 31): `installtop-relay begin|plan|status|end --socket
/// PATH`. It forwards what apt and dpkg hand it to the engine's socket and never does anything
/// that could change or slow the transaction: it reads its input to the end whatever happens (a
/// logger that exits early kills dpkg with SIGPIPE), never waits for the engine (a missing,
/// slow or stopped engine means dropped lines), and always exits 0.
///
/// Two programs run it: `installtop-relay` (this checkout's own small build) and `installtop`
/// itself when it is started under the name `installtop-relay` (the package's
/// `/usr/bin/installtop-relay` is a symbolic link to `installtop`: one binary on the host).
/// It imports only Glibc and RestartScan (the one /proc reader, itself on Glibc alone), and
/// `installtop` calls it before anything else it does at start, so it starts in a few
/// milliseconds either way.
public enum HookRelay {
    /// The name under which `installtop` is the relay.
    public static let programName = "installtop-relay"

    /// Relays what the hook hands it (`arguments` without the program's name) and exits 0.
    public static func run(_ arguments: ArraySlice<String>) -> Never {
        signal(SIGPIPE, SIG_IGN)
        var relay = Relay(arguments: RelayArguments(arguments))
        relay.run()
        exit(0)
    }

    /// Whether `program` (a process's `argv[0]`) names the relay, with or without a folder.
    public static func isInvoked(as program: String) -> Bool {
        let name = program.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? program
        return name == programName
    }
}
