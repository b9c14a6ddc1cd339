import InstallEngine

/// A third package kind, on paper, as a test double (`zypper: {install: [a, b]}`): what a new
/// kind's `JobKind` is once ARCHITECTURE.md's "Adding a kind" is followed. Its planner makes one
/// update a package whose command is `/bin/true PACKAGE`, run by the per-update backend (no
/// driver), so the engine runs it like any other kind's job without a zypper anywhere.
struct FakeZypperJobKind: JobKind {
    var key: String { "zypper" }
    var sectionKeys: [String] { ["install"] }
    var sectionExpectation: String { "a zypper request ({install: [packages]})" }
    var updatesNote: String { "a zypper job's updates are the packages zypper plans" }
    var declaresJobs: Bool { false }
    var asksBeforeRunning: Bool { true }

    func read(_ section: inout ManifestKindSection) -> FakeZypperJob? {
        let packages = section.strings("install")
        guard !section.hasErrors else { return nil }
        guard let packages, !packages.isEmpty else {
            section.report("expected install in zypper, naming at least one package")
            return nil
        }
        return FakeZypperJob(packages: packages)
    }

    func encode<Writer: KindSpecWriter>(_ spec: FakeZypperJob, into members: inout Writer) {
        members.add("install", strings: spec.packages)
    }

    func decode<Reader: KindSpecReader>(_ members: Reader) throws(Reader.Failure) -> FakeZypperJob {
        let packages = try members.strings("install")
        guard !packages.isEmpty else { throw members.refusal("\(members.context): `install` names no package") }
        return FakeZypperJob(packages: packages)
    }

    func operation(of spec: FakeZypperJob) -> UpdateOperation? { .install }
    func describe(_ spec: FakeZypperJob) -> String { (["zypper install"] + spec.packages).joined(separator: " ") }
    func validationPhrase(count: Int) -> String { "\(count) zypper transaction\(count == 1 ? "" : "s") (planned when it runs)" }
    func queuedLine(_ spec: FakeZypperJob, name: String, job: Int?) -> String { "job \(job.map(String.init) ?? "?") queued: \(name)" }

    func plan(_ spec: FakeZypperJob) throws -> KindPlan {
        let updates = spec.packages.map { package in
            Update(id: package, title: package, installCommand: .argv(["/bin/true", package]))
        }
        return .job(updates: updates, driver: nil, summary: "\(updates.count) to install")
    }
}
