import InstallEngine

/// The apt-get command lines of one apt job: the simulation and download list that make the
/// plan, and the transaction itself with the options that make its abort safe (PACKAGES.md).
public struct APTCommandLine: Sendable, Hashable {
    public var request: PackageRequest
    /// The `apt-get` to run.
    public var aptGet: String

    public init(request: PackageRequest, aptGet: String = "/usr/bin/apt-get") {
        self.request = request
        self.aptGet = aptGet
    }

    /// With `Immediate-Configure-All` every package is unpacked and configured before the next
    /// starts, so each `Installed` line is a safe point for SIGINT, and the simulation's order
    /// is the real one.
    static let safeAbortOptions = ["-o", "APT::Immediate-Configure-All=1"]

    /// `apt-get -s …`: the plan, in the order apt will act.
    public var simulation: [String] {
        [aptGet, "-s"] + Self.safeAbortOptions + request.aptArguments
    }

    /// `apt-get --print-uris -qq …`: one line per file to fetch, in `dlstatus` order.
    public var downloadList: [String] {
        [aptGet, "--print-uris", "-qq"] + Self.safeAbortOptions + request.aptArguments
    }

    /// The transaction: no questions (stdin is closed, `-y`, existing configuration files kept),
    /// status lines on fd 3, and a failing package stops only what depends on it.
    public var transaction: [String] {
        [aptGet, "-y", "-o", "APT::Status-Fd=3"] + Self.safeAbortOptions
            + ["-o", "DPkg::Options::=--force-confdef", "-o", "DPkg::Options::=--force-confold"]
            // With Immediate-Configure-All apt would stop at the first failing package and leave
            // packages that do not depend on it unreached (PACKAGES.md).
            + ["-o", "DPkg::StopOnError=false"] + request.aptArguments
    }

    /// `apt-get --reinstall install PACKAGES`: what repairs packages a forced stop left
    /// half-installed (`iHR`), which neither `dpkg --configure -a` nor `apt-get -f install`
    /// does. No questions, existing configuration kept.
    public static func repair(aptGet: String, packages: [String]) -> [String] {
        [aptGet, "-y", "--reinstall", "-o", "DPkg::Options::=--force-confdef", "-o", "DPkg::Options::=--force-confold", "install"]
            + packages
    }

    /// The environment the transaction adds: debconf must not ask either.
    public static let environment = ["DEBIAN_FRONTEND": "noninteractive", "APT_LISTCHANGES_FRONTEND": "none"]
}
