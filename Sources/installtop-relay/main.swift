import HookRelay

// The relay as a program of its own (`swift build` makes it beside installtop): the package
// ships `installtop-relay` as a link to `installtop`, which runs the same `HookRelay`.
HookRelay.run(CommandLine.arguments.dropFirst())
