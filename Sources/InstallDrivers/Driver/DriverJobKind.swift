import InstallEngine

/// Any program that speaks the driver protocol (Documentation/MANIFESTS-AND-DRIVERS.md "Drivers from manifests"): run as a
/// session driver (`ProtocolSessionDriver`), its `plan` lines become jobs, its reports their
/// bars, and stops and forced stops reach it as for the built-in drivers.
public struct DriverJobKind: JobKind {
    public init() {}

    public var key: String { "driver" }
    public var sectionKeys: [String] { ["command", "env", "workdir"] }
    public var sectionExpectation: String { "a driver ({command: [program, arguments...], env: {...}, workdir: .})" }
    public var updatesNote: String { "a driver's jobs and updates are the ones it declares" }
    public var declaresJobs: Bool { true }

    public func operation(of spec: DriverJob) -> UpdateOperation? { nil }
    public func describe(_ spec: DriverJob) -> String { "driver \(spec.command[0])" }

    public func validationPhrase(count: Int) -> String {
        (count == 1 ? "a driver" : "\(count) drivers") + " (its jobs are the ones it declares)"
    }

    public func queuedLine(_ spec: DriverJob, name: String, job: Int?) -> String {
        "driver queued: \(name) (its jobs appear as it declares them)"
    }

    public func plan(_ spec: DriverJob) throws -> KindPlan {
        .session(driver(for: spec))
    }

    /// The session driver that runs `spec`'s program.
    public func driver(for spec: DriverJob) -> ProtocolSessionDriver {
        ProtocolSessionDriver(command: spec.command, environment: spec.environment, workingDirectory: spec.workingDirectory)
    }

    // MARK: - Manifest

    /// `{command: [program, arguments...], env: {...}, workdir: .}`: `command` as an update's
    /// `install` is written (a string runs through `/bin/sh -c`); `workdir` defaults to the
    /// manifest's folder.
    public func read(_ section: inout ManifestKindSection) -> DriverJob? {
        let environment = section.environment("env") ?? [:]
        let workingDirectory = section.directory("workdir") ?? section.folder
        let command = section.command("command", required: true, workingDirectory: workingDirectory, environment: environment)
        guard let command, !section.hasErrors else { return nil }
        let arguments: [String]
        switch command {
        case .argv(let argv): arguments = argv
        case .shell(let script): arguments = ["/bin/sh", "-c", script]
        }
        return DriverJob(command: arguments, environment: environment, workingDirectory: workingDirectory)
    }

    // MARK: - Submission

    /// `{"command":[…],"env":{…},"workdir":…}`.
    public func encode<Writer: KindSpecWriter>(_ spec: DriverJob, into driver: inout Writer) {
        driver.add("command", strings: spec.command)
        driver.add("env", stringMap: spec.environment)
        if let workingDirectory = spec.workingDirectory { driver.add("workdir", workingDirectory) }
    }

    public func decode<Reader: KindSpecReader>(_ driver: Reader) throws(Reader.Failure) -> DriverJob {
        let command = try driver.strings("command")
        guard !command.isEmpty, !command[0].isEmpty else {
            throw driver.refusal("\(driver.context): `command` must name a program")
        }
        return DriverJob(command: command, environment: try driver.stringMap("env"),
                         workingDirectory: try driver.optionalString("workdir"))
    }
}
