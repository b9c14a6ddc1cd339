import Glibc

/// Writes to the operator's terminal while the board has handed it over (a shell, a playing):
/// all of the bytes, waiting while the terminal is slow, giving up only when it is gone.
enum TerminalOutput {
    static func write<Bytes: Collection<UInt8>>(_ bytes: Bytes, to descriptor: Int32 = 1) {
        var remaining = Array(bytes)[...]
        while !remaining.isEmpty {
            let count = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            remaining = remaining.dropFirst(count)
        }
    }
}
