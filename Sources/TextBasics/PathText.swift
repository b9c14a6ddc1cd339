#if canImport(Glibc)
import Glibc
#endif

/// The parts of a file path, as text: what `NSString`'s path methods did for installtop, on
/// the paths it builds (absolute or relative, `/`-separated, no URL).
public enum PathText {
    /// The folder that holds `path`: `/a/b` → `/a`, `/a` → `/`, `a` → `` (empty), trailing
    /// slashes ignored (`/a/b/` → `/a`); `/` stays `/`.
    public static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = withoutTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// The last component of `path`: `/a/b` → `b`, `/a/b/` → `b`, `/` → `/`, `` → ``.
    public static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/" else { return "/" }
        return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
    }

    /// `component` under `folder` with one slash between them: `/a` + `b` → `/a/b`, `/a/` + `b`
    /// → `/a/b`, `` + `b` → `b`.
    public static func appending(_ component: String, to folder: String) -> String {
        guard !folder.isEmpty else { return component }
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let tail = component.hasPrefix("/") ? String(component.dropFirst()) : component
        return base + "/" + tail
    }

    /// `~` and `~/…` as the current user's home (`HOME`, else the password database), `~user`
    /// and `~user/…` as that user's; anything else, or a user that does not exist, unchanged.
    public static func expandingTilde(_ path: String) -> String {
        guard path.hasPrefix("~") else { return path }
        let slash = path.firstIndex(of: "/") ?? path.endIndex
        let user = String(path[path.index(after: path.startIndex)..<slash])
        guard let home = user.isEmpty ? currentHome() : home(of: user) else { return path }
        let rest = String(path[slash...])
        return rest.isEmpty || rest == "/" ? home : withoutTrailingSlashes(home) + rest
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    private static func currentHome() -> String? {
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    private static func home(of user: String) -> String? {
        guard let entry = getpwnam(user), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
