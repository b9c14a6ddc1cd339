/// Why the machine needs a reboot.
public enum RebootReason: Sendable, Hashable {
    /// The running kernel is older than the newest installed one.
    case newerKernel(running: String, installed: String)
    /// `/run/reboot-required` exists; the packages are those `/run/reboot-required.pkgs` names.
    case rebootRequiredFile(packages: [String])
}
