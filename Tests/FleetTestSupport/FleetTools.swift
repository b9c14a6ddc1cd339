import Foundation
import Glibc

/// The programs the fleet runs, by absolute path (children are started with `posix_spawn`,
/// which does not search PATH), and the check that the machine can host a fleet at all.
struct FleetTools: Sendable {
    let ip: String
    let sshd: String
    let ssh: String
    let sshKeygen: String
    let nsenter: String
    let unshare: String
    let shell = "/bin/sh"

    /// Throws a message naming what is missing and how to get it (`Scripts/install-prerequisites test`, run as the test process starts, installs it all).
    static func find() throws -> FleetTools {
        guard getuid() == 0 else {
            throw FleetTestError("the fleet tests need root (network namespaces, mounts): run them as root, as CI does")
        }
        var missing: [String] = []
        func locate(_ name: String, package: String) -> String {
            for folder in ["/usr/sbin", "/sbin", "/usr/bin", "/bin"] where access("\(folder)/\(name)", X_OK) == 0 {
                return "\(folder)/\(name)"
            }
            missing.append("\(name) (apt-get install \(package))")
            return name
        }
        let tools = FleetTools(
            ip: locate("ip", package: "iproute2"), sshd: locate("sshd", package: "openssh-server"),
            ssh: locate("ssh", package: "openssh-client"), sshKeygen: locate("ssh-keygen", package: "openssh-client"),
            nsenter: locate("nsenter", package: "util-linux"), unshare: locate("unshare", package: "util-linux"))
        guard missing.isEmpty else {
            throw FleetTestError("the fleet tests need \(missing.joined(separator: ", ")); Scripts/install-prerequisites test installs them (as root)")
        }
        return tools
    }
}
