import InstallEngine

/// The apt-get command lines of one apt job: the simulation and download list that make the
/// plan, and the transaction itself with the options that make its abort safe (Documentation/PACKAGE-FACTS.md).
public struct APTCommandLine: Sendable, Hashable {
    public var request: PackageRequest
    /// The `apt-get` to run.
    public var aptGet: String

    public init(request: PackageRequest, aptGet: String = "/usr/bin/apt-get") {
        self.request = request
        self.aptGet = aptGet
    }

    /// apt's own safe point after every package: with `Immediate-Configure-All` each package is
    /// unpacked and configured (two dpkg runs) before the next starts, so each `Installed` line
    /// is a safe point for SIGINT. A transaction uses it only when its `DpkgArchiveGate` could
    /// not be made, and the repair always does.
    static let safeAbortOptions = ["-o", "APT::Immediate-Configure-All=1"]

    /// `apt-get -s …`: the plan, in the order apt will act (its options as the transaction's:
    /// apt's own order of unpacking).
    public var simulation: [String] {
        [aptGet, "-s"] + Self.arguments(for: request)
    }

    /// `apt-get --print-uris -qq …`: one line per file to fetch, in `dlstatus` order.
    public var downloadList: [String] {
        [aptGet, "--print-uris", "-qq"] + Self.arguments(for: request)
    }

    /// The transaction: no questions (stdin is closed, `-y`, existing configuration files kept),
    /// status lines on fd 3, a failing package stops only what depends on it, and the safe
    /// point of rule 24 between any two packages dpkg unpacks: `gate`'s, or, without one, apt's
    /// own (`safeAbortOptions`).
    public func transaction(through gate: DpkgArchiveGate?) -> [String] { transaction(adding: [], through: gate) }

    /// The transaction's dpkg options: existing configuration files kept without a question.
    static let keepConfigurationOptions = ["-o", "DPkg::Options::=--force-confdef", "-o", "DPkg::Options::=--force-confold"]

    /// The transaction that makes its own plan (`installtop apt … --yes`): `transaction` plus
    /// `APTHookPlan`'s hook, which apt runs after its downloads and before the first dpkg run
    /// and which writes the plan on the Status-Fd (fd 3) in lines of its own. The root's own
    /// `Pre-Install-Pkgs` hooks still run: the hook is added to their list.
    public func transactionWithPlanHook(through gate: DpkgArchiveGate?) -> [String] {
        transaction(adding: APTHookPlan.options, through: gate)
    }

    /// The transaction's command line with `options` added before apt's own arguments.
    private func transaction(adding options: [String], through gate: DpkgArchiveGate?) -> [String] {
        [aptGet, "-y", "-o", "APT::Status-Fd=3"] + (gate?.aptOptions ?? Self.safeAbortOptions)
            + Self.keepConfigurationOptions
            // apt would otherwise stop at the first failing dpkg run, leaving packages that do
            // not depend on it unreached, and, after the gate's refusal, what was unpacked not
            // configured (Documentation/PACKAGE-FACTS.md).
            + ["-o", "DPkg::StopOnError=false"] + options + Self.arguments(for: request)
    }

    /// `apt-get -y -f install [--reinstall PACKAGES]` with the transaction's options: what
    /// repairs dependencies and half-installed packages after a forced stop. Without packages
    /// apt finishes what is broken (an upgrade cut in its runtime, whose kit depends on it
    /// `(= V)`, is finished); a half-installed package whose old version is still available is
    /// left alone by it (apt exits 0 having done nothing), which `--reinstall P` repairs, with
    /// `-f` so that packages depending on P's exact version follow it.
    public static func fixBroken(aptGet: String, reinstalling packages: [String] = []) -> [String] {
        // Like `check`, without the cache file a killed apt left: with it, apt-get -f install
        // exits 0 having seen nothing broken.
        [aptGet, "-y", "-f"] + safeAbortOptions + keepConfigurationOptions + inMemoryCache
            + (packages.isEmpty ? ["install"] : ["--reinstall", "install"] + packages)
    }

    /// `apt-get install -y P=V …`: after a graceful stop that left apt's dependencies unmet, the
    /// plan's versions of the packages that need a package the stop let through at its own
    /// version (rule 24 where apt's dependencies hold), with nothing else (no recommends, the
    /// configuration files kept), apt's own safe point after each package.
    public static func finishing(aptGet: String, _ changes: [PackageChange]) -> [String] {
        [aptGet, "-y", "--no-install-recommends"] + safeAbortOptions + keepConfigurationOptions + inMemoryCache
            + ["install"] + changes.map { "\($0.package)=\($0.newVersion ?? "")" }
    }

    /// `apt-get check`: exits non-zero when dependencies are broken. Its cache is built in
    /// memory: a `pkgcache.bin` apt wrote before dpkg was killed and repaired can still be taken
    /// as current and hide a kit left at 1.0 that needs its runtime `(= 1.0)` (seen in 4 runs of 8
    /// after a cut in the runtime's postinst).
    public static func check(aptGet: String) -> [String] {
        [aptGet, "check"] + inMemoryCache
    }

    /// No `pkgcache.bin`/`srcpkgcache.bin`: apt reads dpkg's status afresh.
    static let inMemoryCache = ["-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache="]

    /// The environment the transaction adds: debconf must not ask either.
    public static let environment = ["DEBIAN_FRONTEND": "noninteractive", "APT_LISTCHANGES_FRONTEND": "none"]

    /// apt-get's words for `request`.
    static func arguments(for request: PackageRequest) -> [String] {
        switch request {
        case .install(let packages): return ["install"] + packages
        case .upgrade: return ["upgrade"]
        case .fullUpgrade: return ["dist-upgrade"]
        case .remove(let packages): return ["remove"] + packages
        // `P-` in an install removes P; a local .deb older than the installed version is a
        // downgrade apt refuses without the option (Documentation/PACKAGE-FACTS.md).
        case .undo(_, let debs, let removing): return ["install", "--allow-downgrades"] + debs + removing.map { $0 + "-" }
        case .reinstall(let packages, _): return ["install", "--reinstall"] + packages
        }
    }
}
