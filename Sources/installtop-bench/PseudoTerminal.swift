import Glibc

/// The two libc calls a pseudo-terminal needs that Swift's Glibc module leaves out (they are
/// behind _XOPEN_SOURCE), looked up at run time.
enum PseudoTerminal {
    private typealias Unlock = @convention(c) (Int32) -> Int32
    private typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    /// Unlocks the slave of the `/dev/ptmx` descriptor `master` and returns its path, or `nil`.
    static func unlockAndName(_ master: Int32) -> String? {
        let handle = dlopen(nil, RTLD_NOW)
        guard let unlock = dlsym(handle, "unlockpt"), let name = dlsym(handle, "ptsname") else { return nil }
        guard unsafeBitCast(unlock, to: Unlock.self)(master) == 0,
            let path = unsafeBitCast(name, to: Name.self)(master)
        else { return nil }
        return String(cString: path)
    }
}
