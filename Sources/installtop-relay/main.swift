import Glibc

// The command the hooks of `installtop hooks install` run for every apt and dpkg run
// (Documentation/OBSERVED-JOBS.md, rule 31): `installtop-relay begin|plan|status|end --socket PATH`.
// It forwards what apt and dpkg hand it to the engine's socket and never does anything that
// could change or slow the transaction: it reads its input to the end whatever happens (a
// logger that exits early kills dpkg with SIGPIPE), never waits for the engine (a missing,
// slow or stopped engine means dropped lines), and always exits 0.
//
// A program of its own, importing only Glibc and RestartScan (the one /proc reader, itself on
// Glibc alone): it starts for every dpkg call, and installtop itself (FoundationEssentials, SQLite,
// ArgumentParser) takes several times longer to start.

signal(SIGPIPE, SIG_IGN)
let arguments = RelayArguments(CommandLine.arguments.dropFirst())
var relay = Relay(arguments: arguments)
relay.run()
exit(0)
