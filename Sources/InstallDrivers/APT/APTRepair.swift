#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TextBasics

/// Repairs dpkg's database in an apt job's root, each step a visible one: its status text
/// (`repairing: dpkg --configure -a`; `finishing what the stop left pending: …` after a graceful
/// stop), its command and output lines, then what the root was left as (`repaired: …`, `what the
/// stop left pending is done: dpkg is consistent …` or `dpkg is left broken: …`). Commands
/// block: call it off the concurrency pool.
///
/// The check after every repair is `dpkg --audit` (read: it exits 0 even when it lists
/// problems) and `apt-get check`; a repair stops at the first step after which both are clean.
struct APTRepair {
    let environment: APTEnvironment
    let aptGet: String
    /// Where the steps are said: the update the repair is shown on.
    let say: (UpdateReport) -> Void

    /// After a forced stop (rule 25): `dpkg --configure -a` (what an interrupted dpkg needs
    /// before apt works again); then `apt-get -f install` with the transaction's options (it
    /// finishes an upgrade cut in a runtime whose kit depends on it `(= V)`, where a reinstall
    /// of the runtime alone is refused); then, for packages still half-installed, the same with
    /// `--reinstall` of them (apt leaves a half-installed package whose old version it can
    /// still fetch alone otherwise).
    func afterForcedStop() -> APTRepairOutcome {
        var steps: [String] = []
        step(configuring(["--configure", "-a"]), shownAs: "dpkg --configure -a", into: &steps)
        var left = check()
        if left.problem != nil {
            step(APTCommandLine.fixBroken(aptGet: aptGet), shownAs: "apt-get -f install", into: &steps)
            left = check()
        }
        if left.problem != nil, !left.halfWay.isEmpty {
            let names = left.halfWay
            step(APTCommandLine.fixBroken(aptGet: aptGet, reinstalling: names),
                 shownAs: "apt-get -f --reinstall install " + names.joined(separator: " "), into: &steps)
            left = check()
        }
        return finish(steps: steps, left: left)
    }

    /// After a graceful stop: `dpkg --configure --pending` in the same root finishes what the
    /// stop left to dpkg. Stopped at apt's own safe point (`Immediate-Configure-All`), apt ends
    /// before its last run of it, and the triggers the installed packages activated (man-db's,
    /// libc-bin's) are pending; after the gate's refusal (`DpkgArchiveGate`) apt runs it itself
    /// unless the stop came in an earlier batch of unpacks than its last, which leaves what that
    /// batch unpacked for this run to configure. Said as nothing left when dpkg had nothing to do.
    /// When dpkg is then consistent but apt's dependencies are not (a package of `plan` needs,
    /// at its own version, one the stop let through), those packages of `plan` are installed at
    /// the plan's versions (apt's marks kept), and the root checked again.
    func afterGracefulStop(plan: [PackageChange] = []) -> APTRepairOutcome {
        var steps: [String] = []
        let worked = step(configuring(["--configure", "--pending"]), shownAs: "dpkg --configure --pending",
                          doing: "finishing what the stop left pending", into: &steps)
        var left = check()
        // dpkg consistent, apt's dependencies not (apt upgraded, apt-utils still needing the old
        // apt at its version, in a later dpkg run apt no longer started after SIGINT): the
        // plan's versions of the packages left unmet finish with the one they need, so the stop
        // falls where apt's dependencies hold.
        let companions = plan.filter { left.unmet[$0.package] != nil && !$0.isRemoval && $0.newVersion != nil }
        let finishesCompanions = left.auditClean && !companions.isEmpty
        if finishesCompanions {
            let automatic = APTAutoMarks.automaticIfKnown(in: environment) ?? []
            let names = companions.map { "\($0.package)=\($0.newVersion ?? "")" }.joined(separator: " ")
            step(APTCommandLine.finishing(aptGet: aptGet, companions), shownAs: "apt-get install \(names)",
                 doing: "finishing what needs a package the stop let through at its own version", into: &steps)
            // apt marks what it is asked to install as installed by hand: the marks stay the plan's.
            let remark = companions.map(\.package).filter(automatic.contains)
            if !remark.isEmpty {
                step(["/usr/bin/apt-mark", "auto"] + remark, shownAs: "apt-mark auto \(remark.joined(separator: " "))",
                     doing: "keeping apt's marks", into: &steps)
            }
            left = check()
        }
        return finish(steps: steps, left: left, afterGracefulStop: worked || finishesCompanions ? .finishedPending : .nothingPending)
    }

    /// After apt failed on its own (a maintainer script that fails: apt exits 100, no signal),
    /// nothing is retried (rule 25a): when `dpkg --audit` is then not clean, what dpkg was left
    /// with and the commands that finish the transaction once the cause is fixed: `dpkg is left
    /// unfinished (lab-x half-configured at 2.0 (iF)): once the cause is fixed, run `dpkg
    /// --root=… --configure -a`, then `APT_CONFIG=… apt-get -f install``; `nil` when the audit
    /// is clean.
    func leftUnfinished() -> String? {
        let audit = run(dpkg(["--audit"]))
        guard !(audit.stdout + audit.stderr).allSatisfy(\.isWhitespace) else { return nil }
        let states = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let left = states.filter { $0.value.needsReinstall }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.description)" }
        // dpkg reads no APT_CONFIG: in a private root it needs the root's options, as apt passes them.
        let dpkg = environment.dpkg == "/usr/bin/dpkg" ? "dpkg" : environment.dpkg
        let configure = (environment.chroot.map { "chroot \(ShellQuoting.word($0)) " } ?? "")
            + ([dpkg] + environment.dpkgOptions + ["--configure", "-a"]).map(ShellQuoting.word).joined(separator: " ")
        return "dpkg is left unfinished (" + (left.isEmpty ? "dpkg --audit lists problems" : left.joined(separator: ", "))
            + "): once the cause is fixed, run `\(configure)`, then `\(fixCommand(reinstalling: []))`"
    }

    // MARK: - Steps

    /// dpkg with the root's `DPkg::Options` (`--root`, `--log`, `--force-script-chrootless`
    /// in a private root), as apt runs it; `run` enters the job's chroot when it has one.
    private func dpkg(_ arguments: [String]) -> [String] {
        [environment.dpkg] + environment.dpkgOptions + arguments
    }

    /// `dpkg(arguments)` configuring what the transaction left: with the operator's edits of
    /// configuration files kept and the maintainer's default taken otherwise, as the
    /// transaction's apt told dpkg (`APTCommandLine.keepConfigurationOptions`). Without them a
    /// conffile the operator edited, which the new version changes too, has dpkg ask, and with
    /// nobody to answer it fails the package (`end of file on stdin at conffile prompt`).
    private func configuring(_ arguments: [String]) -> [String] {
        dpkg(["--force-confdef", "--force-confold"] + arguments)
    }

    /// Runs `arguments` where the job acts: inside its chroot when it has one.
    private func run(_ arguments: [String]) -> SystemCommand {
        SystemCommand.run(environment.command(arguments), environment: environment.commandEnvironment)
    }

    /// Runs one step, said as `doing: NAME`; whether it printed anything (dpkg prints nothing
    /// when it has nothing to do).
    @discardableResult
    private func step(_ arguments: [String], shownAs name: String, doing: String = "repairing", into steps: inout [String]) -> Bool {
        say(.message("\(doing): \(name) …"))
        say(.output(.stdout, "installtop: \(doing): \(name)"))
        let result = run(arguments)
        // apt-get runs dpkg on a pty, whose lines end in "\r\n": one Character in Swift, which
        // a split on "\n" alone never matches.
        for line in (result.stdout + result.stderr).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            say(.output(.stdout, String(line)))
        }
        let said = name + (result.status == 0 ? " ran" : " exited with status \(result.status)")
        if result.status != 0 { say(.output(.stdout, "installtop: \(said)")) }
        steps.append(said)
        return result.status != 0 || !(result.stdout + result.stderr).allSatisfy(\.isWhitespace)
    }

    /// What the root is left as: the audit's and apt-get check's word, and the packages dpkg
    /// left half-way.
    private func check() -> (problem: String?, halfWay: [String], auditClean: Bool, unmet: [String: String]) {
        let audit = run(dpkg(["--audit"]))
        let auditText = (audit.stdout + audit.stderr).trimmingWhitespace
        for line in auditText.split(separator: "\n") { say(.output(.stdout, "dpkg --audit: " + line)) }
        let aptCheck = run(APTCommandLine.check(aptGet: aptGet))
        let states = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let halfWay = states.filter { $0.value.needsReinstall }.keys.sorted()
        var problems: [String] = []
        if !auditText.isEmpty {
            let left = halfWay.map { "\($0) \(states[$0]?.description ?? "")" }
            problems.append("dpkg --audit lists problems" + (left.isEmpty ? "" : " (" + left.joined(separator: ", ") + ")"))
        }
        var unmet: [String: String] = [:]
        if aptCheck.status != 0 {
            unmet = Self.unmetPackages(in: aptCheck.stdout)
            let error = (aptCheck.stdout + "\n" + aptCheck.stderr).split(separator: "\n").first { $0.hasPrefix("E:") }
            problems.append("apt-get check fails" + (error.map { " (\($0))" } ?? ""))
            for line in (aptCheck.stdout + aptCheck.stderr).split(separator: "\n") where !line.hasPrefix("Reading ") && !line.hasPrefix("Building ") {
                say(.output(.stdout, "apt-get check: " + line))
            }
        }
        return (problems.isEmpty ? nil : problems.joined(separator: "; "), halfWay, auditText.isEmpty, unmet)
    }

    /// The packages `apt-get check`'s output names with unmet dependencies, each with the first
    /// it names: a package starts a line ` NAME : Depends: …` (its further dependencies follow on
    /// lines without ` : `); its `:ARCH` suffix is dropped.
    static func unmetPackages(in output: String) -> [String: String] {
        var unmet: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix(" ") {
            guard let colon = line.firstRange(of: " : ") else { continue }
            let name = line[..<colon.lowerBound].trimmingSpaces
            let package = String(name.split(separator: ":").first ?? Substring(name))
            guard !package.isEmpty, !package.contains(" "), unmet[package] == nil else { continue }
            unmet[package] = line[colon.upperBound...].trimmingSpaces
        }
        return unmet
    }

    private func finish(steps: [String], left: (problem: String?, halfWay: [String], auditClean: Bool, unmet: [String: String]),
                        afterGracefulStop: APTRepairOutcome.GracefulStopWork? = nil) -> APTRepairOutcome {
        let outcome = APTRepairOutcome(steps: steps, problem: left.problem, fixCommand: fixCommand(reinstalling: left.halfWay),
                                       afterGracefulStop: afterGracefulStop, dpkgConsistent: left.auditClean, unmet: left.unmet)
        say(.message(outcome.verdict))
        say(.output(.stdout, "installtop: " + outcome.verdict))
        return outcome
    }

    /// `APT_CONFIG=FILE apt-get -f install` (after `chroot DIR` for a job in a chroot), naming
    /// the half-installed packages to reinstall; what the operator runs when the repair did not
    /// succeed.
    private func fixCommand(reinstalling names: [String]) -> String {
        let prefix = (environment.aptConfig.map { "APT_CONFIG=\(ShellQuoting.word($0)) " } ?? "")
            + (environment.chroot.map { "chroot \(ShellQuoting.word($0)) " } ?? "")
        let aptGet = aptGet == "/usr/bin/apt-get" ? "apt-get" : ShellQuoting.word(aptGet)
        return prefix + aptGet + " -f " + (names.isEmpty ? "install" : "--reinstall install " + names.joined(separator: " "))
    }
}
