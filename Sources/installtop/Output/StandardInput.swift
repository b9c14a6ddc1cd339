import Glibc

/// Standard input, read whole: what a hook or a bridge is handed before it acts.
enum StandardInput {
    /// Every byte until end of file; what was read before an error other than an interrupted
    /// read (a closed or unreadable stdin reads as empty).
    static func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 { bytes += chunk[..<count]; continue }
            if count < 0 && errno == EINTR { continue }
            return bytes
        }
    }
}
