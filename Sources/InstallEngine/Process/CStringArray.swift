import Glibc

/// A NULL-terminated array of `strdup`ed C strings for `posix_spawn`'s argv and envp; the
/// copies are freed when the array goes away. A string with a NUL byte is cut at that byte.
final class CStringArray {
    private var pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) }
        pointers.append(nil)
    }

    deinit {
        for pointer in pointers { free(pointer) }
    }

    /// Calls `body` with the array, valid only during the call.
    func withPointers<Result>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
        pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
