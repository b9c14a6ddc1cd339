import Foundation
import Glibc

/// Where ansible is: the virtual environment `Scripts/install-prerequisites test` makes at `.build/ansible-venv` in the
/// package, else `ansible-playbook` on PATH (with `ansible` next to it).
public struct AnsibleToolchain: Sendable {
    /// Absolute path of `ansible-playbook`.
    public let playbook: String
    /// Absolute path of `ansible` (ad-hoc commands: `ansible -m ping all`).
    public let ansible: String

    /// The package's root, three folders up from this file (Tests/FleetTestSupport/…).
    public static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The folder of the virtual environment's programs.
    public static let virtualEnvironmentBin = packageRoot + "/.build/ansible-venv/bin"

    /// Finds ansible, or throws `AnsibleToolchainMissing` saying how to install it.
    public static func locate() throws(AnsibleToolchainMissing) -> AnsibleToolchain {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = [virtualEnvironmentBin] + path.split(separator: ":").map(String.init)
        for folder in folders where access("\(folder)/ansible-playbook", X_OK) == 0 && access("\(folder)/ansible", X_OK) == 0 {
            return AnsibleToolchain(playbook: "\(folder)/ansible-playbook", ansible: "\(folder)/ansible")
        }
        throw AnsibleToolchainMissing(searched: [virtualEnvironmentBin, "PATH"])
    }
}
