#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// installtop's Ansible callback plugin (`Plugin/`, embedded in the executable as
/// `DriverFiles`) written to a private temporary folder, the way the demo's scripts are.
struct FleetPluginFolder {
    let path: String

    static func create(files: [(name: String, text: String)]) throws -> FleetPluginFolder {
        let path = FileManager.default.temporaryDirectory.path + "/installtop-ansible-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for file in files {
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: path + "/" + file.name))
        }
        return FleetPluginFolder(path: path)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
