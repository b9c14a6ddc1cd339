import CUnixSocket
import Glibc

/// What `installtop bridge` does on a host: joins a pair of descriptors (its stdin and stdout,
/// which ssh carries) to the engine's socket, copying bytes both ways until either side ends.
/// Writes block: the engine's outbox already copes with a peer that reads slowly, and no byte
/// is ever dropped here. The engine checks the bridge's uid (SO_PEERCRED) as it would any client's.
public enum EngineBridge {
    /// How the copying ended.
    public enum Ending: Sendable, Equatable {
        /// The engine closed the connection.
        case engineClosed
        /// Nobody reads the output any more (ssh went away).
        case outputClosed
        /// A read or write failed: which one, and its errno.
        case failed(String, errno: Int32)
    }

    /// Connects to the engine's socket at `path`.
    /// - Throws: `noEngine` when nothing listens there, `notAdmitted` when the socket's mode keeps
    ///   this user out, `notASocket`, `system` otherwise.
    public static func connect(to path: String) throws(DaemonError) -> Int32 {
        let socket = cus_connect(path)
        guard socket >= 0 else { throw .connecting(path, failedWith: errno) }
        return socket
    }

    /// Copies `input` to `socket` and `socket` to `output` until the engine closes the socket,
    /// `output` is gone, or a call fails. When `input` ends, the socket's write side is shut
    /// down (the engine sees the client's end) and its output still goes on being copied.
    public static func run(input: Int32, output: Int32, socket: Int32) -> Ending {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var inputOpen = true
        while true {
            // Output is watched with no events: poll reports POLLERR/POLLHUP once its reader is gone,
            // the only sign of a closed ssh session while the engine has nothing to send.
            var descriptors = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: output, events: 0, revents: 0),
                pollfd(fd: inputOpen ? input : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 3, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed("poll", errno: errno)
            }
            // The socket first: what the engine sent goes out before an ending is noticed.
            if descriptors[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return .failed("read from the engine", errno: errno)
                }
                if count == 0 { return .engineClosed }
                guard writeAll(buffer[..<count], to: output, socket: false) else {
                    return errno == EPIPE ? .outputClosed : .failed("write to stdout", errno: errno)
                }
                continue
            }
            if descriptors[1].revents & Int16(POLLERR | POLLHUP) != 0 { return .outputClosed }
            if descriptors[2].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return .failed("read from stdin", errno: errno)
                }
                if count == 0 {
                    inputOpen = false
                    shutdown(socket, Int32(SHUT_WR))
                    continue
                }
                guard writeAll(buffer[..<count], to: socket, socket: true) else {
                    // The engine went away mid-command: whatever it sent before is copied next.
                    if errno == EPIPE || errno == ECONNRESET { inputOpen = false; continue }
                    return .failed("write to the engine", errno: errno)
                }
            }
        }
    }

    /// Writes every byte, waiting as long as it takes; false with errno set when it cannot.
    private static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, socket: Bool) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { bytes in
                socket ? cus_send(descriptor, bytes.baseAddress, bytes.count) : write(descriptor, bytes.baseAddress, bytes.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A descriptor someone made non-blocking: wait until it takes more.
                    var ready = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
                    _ = poll(&ready, 1, -1)
                    continue
                }
                return false
            }
            rest = rest.dropFirst(count)
        }
        return true
    }
}
