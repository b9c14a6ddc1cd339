extension RestartAdvice {
    /// One line: "2 services to restart (3 processes run deleted or replaced code) · reboot
    /// required", or the all-clear ("Nothing in this root runs …" when other roots' processes
    /// do, which this root's advice leaves out).
    public var headline: String {
        guard needsAction else {
            return "Nothing \(otherRoots.isEmpty ? "" : "in this root ")runs deleted or replaced code; no reboot needed."
        }
        var parts: [String] = []
        if !processes.isEmpty {
            let count = processes.count
            parts.append("\(services.count) \(services.count == 1 ? "service" : "services") to restart "
                + "(\(count) \(count == 1 ? "process runs" : "processes run") deleted or replaced code)")
        }
        if rebootRequired { parts.append("reboot required") }
        return parts.joined(separator: " · ")
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
