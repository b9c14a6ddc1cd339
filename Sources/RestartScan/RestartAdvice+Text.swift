extension RestartAdvice {
    /// One line: "2 services to restart (3 processes run deleted or replaced code; 1 restart
    /// failed) · reboot required", or the all-clear ("Nothing in this root runs …" when other
    /// roots' processes do, which this root's advice leaves out). When the scan could not read
    /// some processes it is never the all-clear: it says how many and that root can read them
    /// ("Could not read 29 processes (run as root for a complete answer); none of the others
    /// runs …"), or, when root made the scan, why root could not ("Could not read 2 processes
    /// (as root: Permission denied: a container, hidepid or a security module hides them)"),
    /// or ends in "· incomplete: …" beside what needs action.
    public var headline: String {
        let count = "\(unreadable.count) \(unreadable.count == 1 ? "process" : "processes")"
        let reasons = Array(Set(unreadable.map(\.reason))).sorted().joined(separator: ", ")
        let unread = scannedAsRoot
            ? "\(count) (as root: \(reasons): a container, hidepid or a security module hides them)"
            : "\(count) (run as root for a complete answer)"
        let place = otherRoots.isEmpty ? "" : "in this root "
        guard needsAction else {
            guard isComplete else {
                return "Could not read \(unread); none of the others \(place)runs deleted or replaced code; no reboot needed."
            }
            return "Nothing \(place)runs deleted or replaced code; no reboot needed."
        }
        var parts: [String] = []
        if !processes.isEmpty || !failedRestarts.isEmpty {
            var why: [String] = []
            if !processes.isEmpty {
                why.append("\(processes.count) \(processes.count == 1 ? "process runs" : "processes run") deleted or replaced code")
            }
            if !failedRestarts.isEmpty {
                why.append("\(failedRestarts.count) \(failedRestarts.count == 1 ? "restart" : "restarts") failed")
            }
            parts.append("\(services.count) \(services.count == 1 ? "service" : "services") to restart (\(why.joined(separator: "; ")))")
        }
        if rebootRequired { parts.append("reboot required") }
        if !isComplete { parts.append("incomplete: could not read " + unread) }
        return parts.joined(separator: " · ")
    }

    /// The services whose restart failed, one line each: "restart failed: nginx.service
    /// (restart exited 0, but `systemctl is-active nginx.service` says failed)". Services and
    /// reasons go through `sanitize`.
    public func failedRestartLines(sanitize: (String) -> String) -> [String] {
        failedRestarts.map { "restart failed: \(sanitize($0.service)) (\(sanitize($0.reason)))" }
    }

    /// The reasons for a reboot, one line each: "reboot required: kernel 6.1.0-18-amd64 is
    /// installed, 6.1.0-9-amd64 runs". Versions and package names go through `sanitize`.
    public func rebootLines(sanitize: (String) -> String) -> [String] {
        rebootReasons.map { reason in
            switch reason {
            case .newerKernel(let running, let installed):
                "reboot required: kernel \(sanitize(installed)) is installed, \(sanitize(running)) runs"
            case .rebootRequiredFile(let packages) where packages.isEmpty:
                "reboot required: /run/reboot-required"
            case .rebootRequiredFile(let packages):
                "reboot required: /run/reboot-required (\(packages.map(sanitize).joined(separator: ", ")))"
            }
        }
    }
}
