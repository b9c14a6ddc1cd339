import Foundation
import Glibc
import InstallDrivers

/// installtop's dnf jobs against plain dnf on the same 50 lab packages (issue 46), printed, never
/// asserted. Usage: `installtop-bench dnf-real [--rounds N] [--installtop PATH]` (default 5 rounds
/// after an uncounted warm-up; installtop beside the bench binary). Each round, in turn (the
/// order reverses every round) and each run in a fresh root reading one lab repository:
/// `installtop dnf install --yes` (its history in a private database) against `dnf -y install`,
/// with `installtop dnf install --yes --no-history` beside them for the history's share; then
/// the plan (`installtop dnf install` off a terminal prints it and exits 1) against `dnf
/// --assumeno install` (dnf prints its plan and exits 1); then `python3 -c "import dnf"` and
/// `installtop --version`, to tell the helper's start-up from installtop's own. Wall time from
/// spawn to exit is the figure; the CPU time of the run's processes (user + system, every
/// descendant waited for) is printed beside it, since on a shared machine only the wall time
/// moves with the load. The goals: ≤ 1.1× and ≤ 1.2× (ratios of median wall times).
///
/// Needs root (rpm's transaction chroots into the root), dnf 4, rpmbuild, createrepo_c and
/// python3-dnf; without one it prints why and measures nothing. A run whose exit status is not
/// the expected one, or after which the root's rpm database does not hold exactly the 50
/// packages (none for a plan), ends the benchmark with what it said. Nothing of the host's is
/// written: both tools keep rpm's database in the root (a private HOME whose `.rpmmacros` says
/// `%_dbpath /var/lib/rpm`), and the host's rpm and dnf folders are checked before and after.
/// The lab (repository, roots, history) is deleted at the end, also after a failure.
enum DNFRealBenchmark {
    static let all = [Benchmark(name: "dnf-real", run: run)]

    static let dnf = "/usr/bin/dnf"

    /// The host's folders dnf or rpm would write to if a root leaked (`/var/log` changes for
    /// other reasons too: only the files named like dnf's, rpm's or librepo's count there).
    private static let hostFolders = ["/var/lib/rpm", "/var/lib/dnf", "/var/cache/dnf", "/var/log"]

    /// `--rounds` (5 by default) and the installtop to measure (`--installtop`, else beside the
    /// bench binary) when everything a dnf benchmark needs is here; nil after saying what is not.
    static func setting() -> (rounds: Int, installtop: String)? {
        let arguments = CommandLine.arguments
        func value(_ option: String) -> String? {
            arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        let rounds = max(1, value("--rounds").flatMap(Int.init) ?? 5)
        let installtop = value("--installtop")
            ?? URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("installtop").path
        guard getuid() == 0 else {
            print("  skipped: rpm's transaction in a root needs root")
            return nil
        }
        guard FileManager.default.isExecutableFile(atPath: dnf) else {
            print("  skipped: no \(dnf) (dnf 4) to compare with")
            return nil
        }
        do { try PrivateDNFRoot.requireTools() } catch {
            print("  skipped: \(error)")
            return nil
        }
        guard FileManager.default.isExecutableFile(atPath: installtop) else {
            print("  skipped: no installtop at \(installtop) (swift build -c release --product installtop first, or --installtop PATH)")
            return nil
        }
        return (rounds, installtop)
    }

    static func run() async {
        guard let (rounds, installtop) = setting() else { return }
        let lab: PrivateDNFRoot
        do { lab = try PrivateDNFRoot(temporaryWithPrefix: "itop-bench-dnf") } catch { return print("  skipped: \(error)") }
        defer { lab.remove() }
        // Before anything of dnf's or rpm's runs, so that `find -newer` sees all they wrote.
        let stamp = lab.folder + "/host-stamp"
        guard FileManager.default.createFile(atPath: stamp, contents: nil) else { return print("  cannot write \(stamp)") }
        let rpmdbBefore = hostRPMDatabases()
        print("  host before: \(rpmdbBefore.isEmpty ? "no /root/.rpmdb" : "present already: " + rpmdbBefore.joined(separator: ", "))")
        let recipes = labPackages()
        let clock = ContinuousClock()
        do {
            let took = try clock.measure { try lab.publish(recipes) }
            let bytes = rpmBytes(in: lab.repository)
            print(String(format: "  lab: %d packages (%.1f MB of rpms, %d with a Lua %%post, %d Requires), built in %.1f s",
                         recipes.count, Double(bytes) / 1e6, recipes.filter { $0.post != nil }.count,
                         recipes.map(\.requires.count).reduce(0, +), took / .seconds(1)))
        } catch {
            return print("  the lab could not be built: \(error)")
        }
        measure(lab: lab, names: recipes.map(\.name), installtop: installtop, rounds: rounds)
        checkHost(stamp: stamp, rpmdbBefore: rpmdbBefore)
    }

    /// One run's wall time (spawn to exit) and the CPU time (user + system) of its processes.
    private struct Timing {
        var wall: Double
        var cpu: Double
    }

    /// One way of running the request: its name, its command line for a root, and the exit
    /// status it must end with (1 for a plan that is not run).
    private struct Contender {
        var name: String
        var arguments: (String) -> [String]
        var status: Int32 = 0
        /// Whether the run installs the packages (else it must leave the root's database empty).
        var installs = true
    }

    /// `env HOME=…`, a private home in `lab`'s folder, before each command of both tools: plain
    /// dnf needs its .rpmmacros (Debian's rpm would otherwise keep its database in
    /// /root/.rpmdb); installtop's helper makes its own, and installtop writes nothing under
    /// HOME with --history-db. `env` on both sides, so that both pay the same extra exec. nil
    /// after saying why the home could not be made.
    static func privateHome(in lab: PrivateDNFRoot) -> [String]? {
        let home = lab.folder + "/home-dnf"
        do {
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data("%_dbpath /var/lib/rpm\n".utf8).write(to: URL(fileURLWithPath: home + "/.rpmmacros"))
        } catch {
            print("  cannot make the private home \(home): \(error)")
            return nil
        }
        return ["/usr/bin/env", "HOME=\(home)"]
    }

    /// Plain dnf in `root` with every folder it reads or writes named inside the root, so that a
    /// default of the host's (/etc/yum.repos.d, /var/cache/dnf, …) can never be used. dnf's
    /// command line prefixes the installroot once more to some of them (its logs land in
    /// ROOT/ROOT/var/log, the metadata and its history database in ROOT/var/…): deeper, still
    /// inside the root.
    static func dnfCommand(in root: String, releaseVersion: String, answer: String, request: [String]) -> [String] {
        [dnf, answer, "--installroot", root, "--releasever", releaseVersion,
         "--setopt=reposdir=\(root)/etc/yum.repos.d", "--config", "\(root)/etc/dnf/dnf.conf",
         "--setopt=cachedir=\(root)/var/cache/dnf", "--setopt=persistdir=\(root)/var/lib/dnf",
         "--setopt=logdir=\(root)/var/log"] + request
    }

    private static func measure(lab: PrivateDNFRoot, names: [String], installtop: String, rounds: Int) {
        guard let environment = privateHome(in: lab) else { return }
        let history = lab.folder + "/history.sqlite3"
        func installtopArguments(_ root: String) -> [String] {
            environment + [installtop, "dnf", "install"] + names + ["--installroot", root, "--releasever", lab.releaseVersion, "--history-db", history]
        }
        func dnfArguments(_ root: String, answer: String) -> [String] {
            environment + dnfCommand(in: root, releaseVersion: lab.releaseVersion, answer: answer, request: ["install"] + names)
        }
        let installs = [
            Contender(name: "installtop dnf install --yes", arguments: { installtopArguments($0) + ["--yes"] }),
            Contender(name: "dnf -y install", arguments: { dnfArguments($0, answer: "-y") }),
            Contender(name: "installtop dnf install --yes --no-history", arguments: {
                environment + [installtop, "dnf", "install"] + names + ["--installroot", $0, "--releasever", lab.releaseVersion, "--yes", "--no-history"]
            }),
        ]
        let plans = [
            Contender(name: "installtop dnf install (plan, off a terminal)", arguments: installtopArguments, status: 1, installs: false),
            Contender(name: "dnf --assumeno install (resolve and print)", arguments: { dnfArguments($0, answer: "--assumeno") }, status: 1,
                      installs: false),
        ]
        let startups = [
            Contender(name: "python3 -c \"import dnf\" (the helper's start-up)", arguments: { _ in environment + ["/usr/bin/python3", "-c", "import dnf"] }),
            Contender(name: "installtop --version (installtop's start-up)", arguments: { _ in environment + [installtop, "--version"] }),
        ]
        print("  \(rounds) rounds after a warm-up, a fresh root a run; load \(loadAverage())")
        var installTimes = Array(repeating: [Timing](), count: installs.count)
        var planTimes = Array(repeating: [Timing](), count: plans.count)
        var startupTimes = Array(repeating: [Timing](), count: startups.count)
        var runs = 0
        // Each group in its order, the order reversed every round (A B C, C B A, …): installtop
        // and dnf alternate which goes first, and no run always follows the same one.
        func timings(_ contenders: [Contender], round: Int) -> [Timing]? {
            var timings = [Timing?](repeating: nil, count: contenders.count)
            for index in round % 2 == 1 ? Array(contenders.indices) : contenders.indices.reversed() {
                runs += 1
                guard let timing = time(contenders[index], names: names, lab: lab, run: runs) else { return nil }
                timings[index] = timing
            }
            return timings.compactMap { $0 }
        }
        // Round 0 warms the page cache and Python's bytecode; it is not counted.
        for round in 0...rounds {
            guard let install = timings(installs, round: round), let plan = timings(plans, round: round) else { return }
            let starts = startups.map { time($0, names: names, lab: lab, run: 0) ?? Timing(wall: 0, cpu: 0) }
            guard round > 0 else { continue }
            for (index, timing) in install.enumerated() { installTimes[index].append(timing) }
            for (index, timing) in plan.enumerated() { planTimes[index].append(timing) }
            for (index, timing) in starts.enumerated() { startupTimes[index].append(timing) }
            print(String(format: "  round %d (%@ first): installtop --yes %.2f s, dnf -y %.2f s (%.2f×), --no-history %.2f s; plan %.2f s, dnf --assumeno %.2f s (%.2f×); import dnf %.3f s, installtop --version %.3f s",
                         round, round % 2 == 1 ? "installtop" : "dnf", install[0].wall, install[1].wall, install[0].wall / install[1].wall,
                         install[2].wall, plan[0].wall, plan[1].wall, plan[0].wall / plan[1].wall, starts[0].wall, starts[1].wall))
        }
        print("  \(names.count) packages a run, every one in the root's rpm database after each install, none after each plan")
        report(installs.map(\.name), installTimes, goal: 1.1)
        report(plans.map(\.name), planTimes, goal: 1.2)
        report(startups.map(\.name), startupTimes, goal: nil)
        explain(installs: installTimes, plans: planTimes, startups: startupTimes)
        print("  load after: \(loadAverage())")
    }

    /// Runs `contender` in a fresh root (made and removed outside the time) with stdin, stdout
    /// and stderr on /dev/null, and checks the root's rpm database after it; its timing, or nil
    /// (after saying why) when the run did not do what it should. `run` 0: a command that needs
    /// no root. The CPU time counts the processes waited for (the helper, rpm and its
    /// scriptlets: each is waited for by its parent); nothing else of this process's runs meanwhile.
    private static func time(_ contender: Contender, names: [String], lab: PrivateDNFRoot, run: Int) -> Timing? {
        guard run > 0 else {
            let before = childrenCPUSeconds()
            let result = APTRealBenchmark.spawn(contender.arguments(""))
            guard result.status == contender.status else {
                print("  \(contender.name) failed (exit status \(result.status))")
                return nil
            }
            return Timing(wall: result.wall, cpu: childrenCPUSeconds() - before)
        }
        guard let root = freshRoot(of: lab, run: run) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: root).deletingLastPathComponent().path) }
        let before = childrenCPUSeconds()
        let result = APTRealBenchmark.spawn(contender.arguments(root))
        let cpu = childrenCPUSeconds() - before
        let installed = installedNames(in: root)
        let expected = contender.installs ? Set(names) : []
        guard result.status == contender.status, installed == expected else {
            print("  \(contender.name) failed in \(root): exit status \(result.status) (expected \(contender.status)); "
                + "the rpm database holds \(installed.count) packages, expected \(expected.count)")
            return nil
        }
        return Timing(wall: result.wall, cpu: cpu)
    }

    /// The CPU time (user + system) of this process's children that have been waited for, with
    /// theirs, in seconds.
    private static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// A new root reading the lab's repository, laid out as `PrivateDNFRoot` lays out its own
    /// (its `lab.repo` and `dnf.conf` copied, an empty `var/log`); nil (after saying why) when
    /// it cannot be written.
    static func freshRoot(of lab: PrivateDNFRoot, run: Int) -> String? {
        let root = lab.folder + "/runs/\(run)/root"
        do {
            for folder in ["/etc/yum.repos.d", "/etc/dnf", "/var/log"] {
                try FileManager.default.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
            }
            for file in ["/etc/yum.repos.d/lab.repo", "/etc/dnf/dnf.conf"] {
                try FileManager.default.copyItem(atPath: lab.root + file, toPath: root + file)
            }
        } catch {
            print("  cannot make the fresh root \(root): \(error)")
            return nil
        }
        return root
    }

    /// The names the root's rpm database holds (rpm's database where both tools keep it).
    static func installedNames(in root: String) -> Set<String> {
        let query = SystemCommand.run([PrivateDNFRoot.rpm, "--root", root, "--dbpath", "/var/lib/rpm", "-qa", "--qf", "%{NAME}\\n"])
        return Set(query.stdout.split(separator: "\n").map(String.init))
    }

    /// 50 noarch packages in ten chains of five (each needs the next; every chain's head also
    /// needs the last package), each with four small files and 50–200 kB of filler, three with a
    /// Lua `%post` that prints a line: dnf resolves real dependencies, rpm orders them and
    /// unpacks about 6 MB.
    static func labPackages() -> [RPMPackageRecipe] {
        func name(_ index: Int) -> String { String(format: "bench-%02d", index) }
        return (1...50).map { index in
            var requires = index % 5 == 0 ? [] : [name(index + 1)]
            if index % 10 == 1 { requires.append(name(50)) }
            let files = [
                "/usr/share/\(name(index))/version": "\(name(index)) 1.0-1\n",
                "/usr/share/doc/\(name(index))/README": "\(name(index)): a package of installtop's dnf benchmark.\n",
                "/etc/\(name(index))/\(name(index)).conf": "enabled = yes\nlevel = \(index)\n",
                "/usr/lib/\(name(index))/data.txt": String(repeating: "\(name(index)) data line\n", count: 40),
            ]
            let post = [7, 23, 41].contains(index) ? RPMPackageRecipe.printing(["\(name(index)): configured"]) : nil
            return RPMPackageRecipe(name: name(index), requires: requires, post: post, files: files,
                                    fillerBytes: 50_000 + (index * 37 % 16) * 10_000)
        }
    }

    /// Medians and ranges of the wall time, the median CPU time, and the first's ratio to the
    /// second: of the medians (the goal's figure), paired by round, and of the CPU times.
    private static func report(_ names: [String], _ timings: [[Timing]], goal: Double?) {
        for (index, name) in names.enumerated() {
            let walls = timings[index].map(\.wall)
            print("  " + name.padding(toLength: 52, withPad: " ", startingAt: 0)
                + String(format: " median %6.3f s  range %.3f–%.3f s  CPU %.3f s", median(walls), walls.min() ?? 0, walls.max() ?? 0,
                         median(timings[index].map(\.cpu))))
        }
        guard let goal else { return }
        let (first, second) = (timings[0].map(\.wall), timings[1].map(\.wall))
        let paired = zip(first, second).map { $0 / $1 }
        print(String(format: "    ratio of medians %.2f× (goal ≤ %.1f×); paired by round: median %.2f× (%.2f–%.2f); of the CPU times %.2f×",
                     median(first) / median(second), goal, median(paired), paired.min() ?? 0, paired.max() ?? 0,
                     median(timings[0].map(\.cpu)) / median(timings[1].map(\.cpu))))
    }

    /// Where installtop's extra time goes: it plans in a helper process of its own (Python,
    /// dnf's import, the repository's metadata, a resolve) before the transaction's helper,
    /// which does all that again; what is left is installtop itself (its start, the rpm query
    /// that settles every package, the restart scan, the history).
    private static func explain(installs: [[Timing]], plans: [[Timing]], startups: [[Timing]]) {
        // Every figure twice: the wall time and the CPU time, which the machine's load moves less.
        func both(_ figure: (KeyPath<Timing, Double>) -> Double, format: String = "%.2f s") -> String {
            String(format: "\(format) (CPU \(format))", figure(\.wall), figure(\.cpu))
        }
        func middle(_ timings: [Timing], _ value: KeyPath<Timing, Double>) -> Double { median(timings.map { $0[keyPath: value] }) }
        func differences(_ first: [Timing], _ second: [Timing], _ value: KeyPath<Timing, Double>) -> [Double] {
            zip(first, second).map { $0[keyPath: value] - $1[keyPath: value] }
        }
        print("  installtop --yes takes \(both { median(differences(installs[0], installs[1], $0)) }) more than dnf -y (medians of paired differences); "
            + "its plan alone takes \(both { middle(plans[0], $0) }) (dnf's resolve \(both { middle(plans[1], $0) })), of which "
            + "python3 -c \"import dnf\" \(both({ middle(startups[0], $0) }, format: "%.3f s")) and installtop's start \(both({ middle(startups[1], $0) }, format: "%.3f s"))")
        // What is left once the plan's own run is taken away: the transaction's helper (which
        // resolves again) and installtop's end (the rpm query, the restart scan, the history).
        func afterPlanRatio(_ value: KeyPath<Timing, Double>) -> [Double] {
            zip(differences(installs[0], plans[0], value), installs[1]).map { $0 / $1[keyPath: value] }
        }
        print("    installtop --yes minus its plan: \(both { median(differences(installs[0], plans[0], $0)) }), "
            + String(format: "%.2f× dnf -y paired by round (%.2f–%.2f; CPU %.2f×)", median(afterPlanRatio(\.wall)), afterPlanRatio(\.wall).min() ?? 0,
                     afterPlanRatio(\.wall).max() ?? 0, median(afterPlanRatio(\.cpu))))
        let history = differences(installs[0], installs[2], \.wall)
        print("    the history (a private database against --no-history): \(both { median(differences(installs[0], installs[2], $0)) }) "
            + String(format: "(medians of paired differences; wall %.2f–%.2f s)", history.min() ?? 0, history.max() ?? 0))
    }

    /// The bytes of the repository's rpms.
    private static func rpmBytes(in repository: String) -> Int {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: repository)) ?? []
        return files.filter { $0.hasSuffix(".rpm") }.reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: repository + "/" + file)[.size] as? Int) ?? 0)
        }
    }

    /// The rpm databases Debian's rpm would make in a home folder (`~/.rpmdb`) that exist now.
    private static func hostRPMDatabases() -> [String] {
        Set(["/root/.rpmdb", NSHomeDirectory() + "/.rpmdb"]).sorted().filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Says whether anything of the host's rpm or dnf changed since `stamp`: a new `~/.rpmdb`,
    /// any file under /var/lib/rpm, /var/lib/dnf or /var/cache/dnf, a file of dnf's, rpm's or
    /// librepo's under /var/log (other changes there are listed, not counted: the machine's logs
    /// go on).
    private static func checkHost(stamp: String, rpmdbBefore: [String]) {
        let rpmdbAfter = hostRPMDatabases()
        let folders = hostFolders.filter { FileManager.default.fileExists(atPath: $0) }
        let changed = SystemCommand.run(["/usr/bin/find"] + folders + ["-newer", stamp]).stdout.split(separator: "\n").map(String.init)
        // /var/log itself changes whenever anything makes a log there: only its files are judged.
        let isDNFs = { (path: String) in
            !path.hasPrefix("/var/log") || ["dnf", "rpm", "hawkey", "librepo"].contains { path.dropFirst(8).lowercased().contains($0) }
        }
        let dnfs = changed.filter(isDNFs)
        let others = changed.filter { !isDNFs($0) }
        let rpmdb = rpmdbAfter == rpmdbBefore ? (rpmdbAfter.isEmpty ? "no /root/.rpmdb" : "~/.rpmdb as before") : "~/.rpmdb appeared: \(rpmdbAfter)"
        let verdict = dnfs.isEmpty ? "nothing of dnf's or rpm's changed under \(folders.joined(separator: ", "))" : "CHANGED: \(dnfs.joined(separator: ", "))"
        let rest = others.isEmpty ? "" : "; other files changed under /var/log meanwhile (not dnf's): \(others.prefix(8).joined(separator: ", "))"
            + (others.count > 8 ? " and \(others.count - 8) more" : "")
        print("  host after: \(rpmdb); \(verdict)\(rest)")
    }
}
