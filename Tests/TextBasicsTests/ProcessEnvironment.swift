import Glibc

/// The test process's own environment, read with getenv.
enum ProcessEnvironment {
    static var home: String? { getenv("HOME").map { String(cString: $0) } }
}
