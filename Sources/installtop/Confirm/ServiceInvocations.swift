import InstallDrivers

/// The services a commit-confirmed job restarted, and their restart again after its revert
/// (Documentation/COMMIT-CONFIRMED.md). systemd gives each start of a unit a new
/// `InvocationID`: the active services' IDs are read before the job and after it, and a service
/// whose ID changed, or that was not active before, was restarted (or started) while the job
/// ran. After a revert put the old versions back, those are restarted again with one
/// `systemctl try-restart`, so that they run the old code (try-restart leaves a service that is
/// not running alone, and one the revert removed is reported by systemctl).
///
/// Another service that restarted on its own during the job is counted too: restarting it once
/// more after the revert is harmless. Where systemd does not run nothing is read or restarted,
/// and the old packages' maintainer scripts restart what they restart.
struct ServiceInvocations {
    let tools: SystemdTools

    /// `systemctl show` for every active service's name, state and invocation, in one call.
    var showCommand: [String] {
        [tools.systemctl, "show", "--type=service", "--state=active", "--property=Id,ActiveState,InvocationID", "--", "*.service"]
    }

    /// The active services and their invocation IDs now; `nil` where systemd does not run or
    /// systemctl failed (then nothing is compared).
    func now() -> [String: String]? {
        guard tools.running else { return nil }
        let result = SystemCommand.run(showCommand)
        guard result.status == 0 else { return nil }
        return Self.parse(result.stdout)
    }

    /// `systemctl show`'s blocks (`Id=…`, `ActiveState=…`, `InvocationID=…`, a blank line
    /// between units, in any order): the services that are active (or reloading) and have an
    /// invocation, by name. systemctl's `--state` filter is applied again here, since the
    /// pattern may list loaded units that are not running.
    static func parse(_ output: String) -> [String: String] {
        var services: [String: String] = [:]
        for block in output.split(separator: "\n\n", omittingEmptySubsequences: true) {
            var fields: [Substring: Substring] = [:]
            for line in block.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                fields[line[..<equals]] = line[line.index(after: equals)...]
            }
            guard let id = fields["Id"], !id.isEmpty, let invocation = fields["InvocationID"], !invocation.isEmpty,
                  ["active", "reloading"].contains(fields["ActiveState"] ?? "active") else { continue }
            services[String(id)] = String(invocation)
        }
        return services
    }

    /// The services running after the job under another invocation than before it, or not
    /// running before it, sorted; `nil` when either side was not read.
    static func restarted(before: [String: String]?, after: [String: String]?) -> [String]? {
        guard let before, let after else { return nil }
        return after.filter { before[$0.key] != $0.value }.keys.sorted()
    }

    /// `systemctl try-restart -- UNITS`.
    func tryRestartCommand(_ units: [String]) -> [String] {
        [tools.systemctl, "try-restart", "--no-ask-password", "--"] + units
    }

    /// Restarts `units` again after a revert; says which were restarted, or why none was, in
    /// one line without `installtop: run N: `. `units` is `nil` when they were not recorded.
    func restartAgain(_ units: [String]?) -> String {
        guard let units else {
            return "services: none restarted again (the job's restarts were not recorded: systemd did not run here); "
                + "the old versions' maintainer scripts restarted what they restart"
        }
        guard !units.isEmpty else { return "services: the job restarted none, none restarted again" }
        let names = units.joined(separator: " ")
        guard tools.running else { return "services the job restarted, not restarted again: systemd is not running here: \(names)" }
        let result = SystemCommand.run(tryRestartCommand(units))
        guard result.status == 0 else {
            return "services the job restarted: \(names); systemctl try-restart failed (some or all may not be restarted): "
                + HealthProbe.firstLine(result.stderr.isEmpty ? result.stdout : result.stderr, status: result.status)
        }
        return "services the job restarted, restarted again (those running): \(names)"
    }
}
