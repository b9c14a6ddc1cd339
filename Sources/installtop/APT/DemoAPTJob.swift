#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallEngine
import TextBasics

/// The demo's real apt job: a few small packages built offline into a private apt root in a
/// temporary folder (never the host's packages), planned by apt and run by `APTDriver`, so the
/// demo shows what `installtop apt install` looks like: one bar per package, dependencies
/// first, a slow postinst, a failing one and one that asks for a reboot. apt's kind hands it to
/// the demo (`APTKindRegistration.demoJob`).
struct DemoAPTJob: DemoKindJob {
    /// The root the packages are built and installed into; `remove()` deletes it.
    let root: PrivateAPTRoot
    /// The job for the queue, planned and ready to run without asking (it is a demo).
    let job: RunnableJob

    /// The prefix of the root's folder under `$TMPDIR`: the demo's folders share one prefix,
    /// so whatever looks for leftovers finds this one too.
    static let folderPrefix = "installtop-demo-apt"

    /// Builds the packages, publishes them in a fresh private root and asks apt for the plan.
    /// Returns `nil` after saying why in one line on stderr when `dpkg-deb` or `apt-get` is
    /// missing or any step fails; the rest of the demo runs without this job then. Nothing is
    /// left behind on failure.
    /// - Parameter environment: where `INSTALLTOP_DEMO_SPEED` is read.
    static func prepare(environment: [String: String] = ProcessInfo.processInfo.environment) -> DemoAPTJob? {
        let root: PrivateAPTRoot
        do {
            try PrivateAPTRoot.requireTools()
            root = try PrivateAPTRoot(temporaryWithPrefix: folderPrefix)
        } catch {
            skip(because: error.message)
            return nil
        }
        do {
            try root.publish(recipes(speed: speed(in: environment)))
        } catch {
            skip(because: error.message)
            root.remove()
            return nil
        }
        // Planned as any manifest's apt job is (`JobPlanner`), so the demo shows what a user's
        // `apt:` job does, name and all.
        let kind = JobKindSpec(kind: APTJobKind(), spec: PackageJob(request: .install(requested), aptConfig: root.configuration))
        do {
            switch try JobPlanner.plan(name: "Demo packages (apt in a private root)", operation: .install, updates: [],
                                       stopOnFailure: false, kind: kind) {
            case .job(let name, let operation, let updates, let stopOnFailure, let driver):
                let job = RunnableJob(name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure, driver: driver)
                return DemoAPTJob(root: root, job: job)
            case .nothingToDo(let reason):
                skip(because: reason)
            case .session:
                skip(because: "apt planned a session, not a job")
            }
        } catch {
            skip(because: error.reason.split(separator: "\n").first.map(String.init) ?? "apt refused the plan")
        }
        root.remove()
        return nil
    }

    /// Deletes the private root, its repository and its configuration.
    func remove() {
        root.remove()
    }

    // MARK: - The packages

    /// What the job asks apt for; apt adds `demo-libfoo`, which `demo-foo` depends on.
    static let requested = ["demo-foo", "demo-indexer", "demo-broken", "demo-kernel"]

    /// The packages. Their scripts write only under `$DPKG_ROOT` (they run on the host, chrootless).
    /// - Parameter speed: `INSTALLTOP_DEMO_SPEED`; the slow postinst's pauses are divided by it.
    static func recipes(speed: Double) -> [DebianPackageRecipe] {
        // Baked into the script rather than read from the environment there: apt and dpkg
        // stand between installtop and the script.
        let pause = CFormat.decimals(0.8 / speed, places: 3)
        return [
            DebianPackageRecipe(name: "demo-libfoo", summary: "installtop demo: a library",
                                files: ["/usr/share/demo-libfoo/README": "A library demo-foo depends on.\n"]),
            DebianPackageRecipe(name: "demo-foo", depends: "demo-libfoo (>= 1.0)", summary: "installtop demo: a program",
                                files: ["/usr/share/demo-foo/README": "A program that needs demo-libfoo.\n"]),
            DebianPackageRecipe(name: "demo-indexer", summary: "installtop demo: a slow postinst", postinst: """
                for step in 1 2 3 4 5; do
                    echo "demo-indexer: building the search index (step $step of 5)"
                    sleep \(pause)
                done
                mkdir -p "$DPKG_ROOT/var/lib/demo-indexer"
                touch "$DPKG_ROOT/var/lib/demo-indexer/index"
                """),
            DebianPackageRecipe(name: "demo-broken", summary: "installtop demo: a failing postinst", postinst: """
                echo "demo-broken: cannot start demo-broken.service: the demo made this postinst fail on purpose" >&2
                exit 1
                """),
            DebianPackageRecipe(name: "demo-kernel", summary: "installtop demo: asks for a reboot",
                                postinst: DebianPackageRecipe.rebootRequestingPostinst),
        ]
    }

    /// `INSTALLTOP_DEMO_SPEED` as the demo's scripts read it: a positive number, 1 otherwise.
    static func speed(in environment: [String: String]) -> Double {
        guard let text = environment["INSTALLTOP_DEMO_SPEED"], let value = Double(text), value > 0, value.isFinite else { return 1 }
        return value
    }

    private static func skip(because reason: String) {
        StandardOutput.stderr.line("installtop: demo: skipping the apt job (\(reason))")
    }
}
