import Glibc

/// The environment a child gets (PRODUCT.md): installtop's own, then the update's `env`, then
/// the `INSTALLTOP_*` variables, each later source replacing a variable of the same name.
struct ChildEnvironment {
    /// `NAME=value` entries, one per name.
    private(set) var entries: [String] = []
    /// The child's `PATH`, used to find a command given by name; `nil` when it has none.
    private(set) var searchPath: String?

    init(for request: UpdateRunRequest) {
        var overrides = request.update.environment
        overrides["INSTALLTOP_PROGRESS_FD"] = "3"
        overrides["INSTALLTOP_UPDATE_ID"] = request.update.id
        overrides["INSTALLTOP_OPERATION"] = request.operation.name
        overrides["INSTALLTOP_JOB"] = request.jobName
        if request.controlChannel { overrides["INSTALLTOP_CONTROL_FD"] = "4" }

        var index = 0
        while let entry = environ[index] {
            index += 1
            let text = String(cString: entry)
            guard let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(text[..<equals])
            if overrides[name] != nil { continue }
            if name == "PATH" { searchPath = String(text[text.utf8.index(after: equals)...]) }
            entries.append(text)
        }
        for (name, value) in overrides where !name.isEmpty && !name.utf8.contains(UInt8(ascii: "=")) {
            if name == "PATH" { searchPath = value }
            entries.append("\(name)=\(value)")
        }
    }
}
