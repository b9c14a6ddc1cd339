import Glibc

/// The environment a child gets (Documentation/MANIFESTS-AND-DRIVERS.md): installtop's own, then the spec's (an update's
/// `env` and its `INSTALLTOP_*` variables), then the descriptor variables, each later source
/// replacing a variable of the same name.
///
/// Built once per spawn, on the path between one child and the next, so installtop's own
/// entries are not copied: the array points at the strings of `environ` (which glibc never
/// frees), and only the overriding entries are allocated, and freed with the value.
final class ChildEnvironment {
    /// `NAME=value` entries, one per name, then a NULL.
    private var pointers: [UnsafeMutablePointer<CChar>?] = []
    /// The entries this value allocated.
    private var owned: [UnsafeMutablePointer<CChar>] = []
    /// The child's `PATH`, used to find a command given by name; `nil` when it has none.
    private(set) var searchPath: String?

    convenience init(for spec: ChildSpec) {
        var overrides = spec.environment
        overrides["INSTALLTOP_PROGRESS_FD"] = "3"
        if spec.controlChannel { overrides["INSTALLTOP_CONTROL_FD"] = "4" }
        self.init(adding: overrides)
    }

    /// installtop's own environment with `overrides` in place of the variables they name.
    init(adding overrides: [String: String]) {
        let overridden = overrides.keys.map { Array($0.utf8) }

        var index = 0
        while let entry = environ[index] {
            index += 1
            guard let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { continue }
            let name = UnsafeRawBufferPointer(start: entry, count: entry.distance(to: equals))
            if overridden.contains(where: { $0.elementsEqual(name) }) { continue }
            if name.elementsEqual("PATH".utf8) { searchPath = String(cString: equals + 1) }
            pointers.append(entry)
        }
        for (name, value) in overrides where !name.isEmpty && !name.utf8.contains(UInt8(ascii: "=")) {
            if name == "PATH" { searchPath = value }
            guard let copy = strdup("\(name)=\(value)") else { continue }
            owned.append(copy)
            pointers.append(copy)
        }
        pointers.append(nil)
    }

    deinit {
        for pointer in owned { free(pointer) }
    }

    /// Calls `body` with the NULL-terminated array, valid only during the call.
    func withPointers<Result>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
        pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
