import Foundation
import Glibc

/// A fresh mode-0700 directory under the system's temporary directory for one test's socket,
/// removed when the value goes away. Short, because a socket path must fit in `sun_path`.
final class SocketDirectory: Sendable {
    let path: String

    init(mode: mode_t = 0o700) {
        let name = "itd-" + UUID().uuidString.prefix(8).lowercased()
        path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        mkdir(path, 0o700)
        // chmod, not mkdir's mode: the umask would clear group and other bits.
        chmod(path, mode)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// The engine's socket.
    var socket: String { file("engine.sock") }
}
