/// Turns a fleet job into the session driver that runs it (Ansible). Given to the daemon by
/// the executable, like `PackageJobPlanner`.
public protocol FleetJobPlanner: Sendable {
    /// Checks the run (the playbook parses, its plays match hosts) and returns its driver.
    /// - Throws: the refusal in the tool's own words (not found, syntax error, no host).
    func driver(for job: FleetJob) throws -> any SessionDriver
}
