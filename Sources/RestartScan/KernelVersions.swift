/// The kernels installed under a root and the order of kernel release strings.
public enum KernelVersions {
    /// The releases installed under `root`: the `VERSION` of every `boot/vmlinuz-VERSION`, or,
    /// when `boot` holds none, every folder `lib/modules/VERSION` that has a `modules.dep`
    /// (so the leftovers of a removed kernel do not count). Empty in a container without either.
    public static func installed(root: String) -> [String] {
        let boot = FileMetadata.entries(of: join(root, "boot")).compactMap { name -> String? in
            name.hasPrefix("vmlinuz-") ? String(name.dropFirst("vmlinuz-".count)) : nil
        }
        if !boot.isEmpty { return boot }
        let modules = join(root, "lib/modules")
        return FileMetadata.entries(of: modules).filter { FileMetadata.exists(modules + "/" + $0 + "/modules.dep") }
    }

    /// The newest of `versions` by `precedes`; `nil` for none.
    public static func newest(_ versions: [String]) -> String? {
        versions.max { precedes($0, $1) }
    }

    /// Whether release `a` is older than `b`, comparing runs of digits as numbers and other runs
    /// as text (`6.1.0-9-amd64` before `6.1.0-18-amd64`); a `~` part sorts before anything, as
    /// in Debian versions (`6.12~rc1` before `6.12`).
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var left = Substring(a)
        var right = Substring(b)
        while !left.isEmpty || !right.isEmpty {
            let leftText = left.prefix { !$0.isNumber }
            let rightText = right.prefix { !$0.isNumber }
            if leftText != rightText { return textPrecedes(leftText, rightText) }
            left = left.dropFirst(leftText.count)
            right = right.dropFirst(rightText.count)
            let leftDigits = left.prefix { $0.isNumber }
            let rightDigits = right.prefix { $0.isNumber }
            let leftNumber = leftDigits.drop { $0 == "0" }
            let rightNumber = rightDigits.drop { $0 == "0" }
            if leftNumber.count != rightNumber.count { return leftNumber.count < rightNumber.count }
            if leftNumber != rightNumber { return leftNumber < rightNumber }
            left = left.dropFirst(leftDigits.count)
            right = right.dropFirst(rightDigits.count)
        }
        return false
    }

    private static func textPrecedes(_ a: Substring, _ b: Substring) -> Bool {
        if a.hasPrefix("~") != b.hasPrefix("~") { return a.hasPrefix("~") }
        if a.isEmpty != b.isEmpty { return a.isEmpty }
        return a < b
    }

    static func join(_ root: String, _ path: String) -> String {
        root.hasSuffix("/") ? root + path : root + "/" + path
    }
}
