import InstallEngine

/// apt's own plan, as its `DPkg::Pre-Install-Pkgs` hook (protocol version 3) is given it during
/// the transaction: after the downloads, before the first dpkg run, so it is fixed before any
/// package changes (rule 22) and costs no resolution of its own (apt.conf(5)).
///
/// The hook is a shell function apt runs with `sh -c` where it runs (inside a chroot too): it
/// skips the protocol's header and configuration, then writes each package line to fd 3 (the
/// transaction's Status-Fd, kept open for it by `APT::Keep-Fds`) as `installtop-plan:LINE`, then
/// `installtop-plan-end`. Those lines reach installtop on the Status-Fd pipe before any
/// `pmstatus` line, since apt waits for the hook before it starts dpkg. Then the hook reads
/// installtop's answer on fd 4 (the transaction's control channel): `go` lets dpkg start; any
/// other line, or none (installtop gone), fails the hook, and apt ends before dpkg has changed
/// anything. apt ignores SIGINT while its hooks run, so this answer is how a stop that came
/// during them (a root's `apt-listchanges`, say) still stops apt. The hook uses the shell's
/// builtins only, so it runs in any root that has `/bin/sh`.
public struct APTHookPlan: Sendable, Hashable {
    /// The package lines the hook wrote, in apt's order.
    public private(set) var lines: [String] = []
    /// Whether the hook's last line has come: the plan is complete.
    public private(set) var isComplete = false

    public init() {}

    /// The prefix of every package line the hook writes.
    static let linePrefix = "installtop-plan:"
    /// The hook's last line.
    static let endLine = "installtop-plan-end"
    /// The hook's function: apt keys a hook's protocol version by its command's first word,
    /// which this name makes the hook's own (never a root's hook's).
    static let functionName = "installtop_plan"

    /// The hook's shell text.
    static let hookCommand = """
        \(functionName)() { while IFS= read -r l && [ -n "$l" ]; do :; done; \
        while IFS= read -r l; do printf '\(linePrefix)%s\\n' "$l"; done; echo \(endLine); }; \(functionName) >&3 && \
        read -r a <&4 && [ "$a" = \(goAnswer) ]
        """

    /// The answer that lets dpkg start.
    static let goAnswer = "go"
    /// The answer that stops apt before dpkg.
    static let stopAnswer = "stop"

    /// The transaction's options that add the hook: fds 3 and 4 kept open for it, its protocol
    /// version, and the hook appended to the root's `DPkg::Pre-Install-Pkgs` list.
    static let options = [
        "-o", "APT::Keep-Fds::=3", "-o", "APT::Keep-Fds::=4",
        "-o", "DPkg::Tools::Options::\(functionName)()::Version=3",
        "-o", "DPkg::Pre-Install-Pkgs::=\(hookCommand)",
    ]

    /// Takes `line` from the Status-Fd when it is the hook's; `false` for apt's own lines.
    public mutating func consume(_ line: String) -> Bool {
        if line.hasPrefix(Self.linePrefix) {
            lines.append(String(line.dropFirst(Self.linePrefix.count)))
            return true
        }
        guard line == Self.endLine else { return false }
        isComplete = true
        return true
    }

    /// The changes the hook named, in apt's order, each package once (a package unpacked and
    /// then configured is named twice); Essential packages marked from `administrativeDirectory`.
    public func changes(administrativeDirectory: String) -> [PackageChange] {
        APTEssentialPackages.marking(ObservedPlan(lines: lines).changes, administrativeDirectory: administrativeDirectory)
    }
}
