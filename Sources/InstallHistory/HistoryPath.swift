/// The path arithmetic the history needs, as `NSString`'s path methods did it, without
/// Foundation: a database's folder, its file name, a name in a folder.
enum HistoryPath {
    /// `/a/b` for `/a/b/c` (and `/a/b/c/`); `/` for `/c`; empty for a bare name `c`.
    static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// `c` for `/a/b/c` (and `/a/b/c/`); `/` for `/`.
    static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/" else { return "/" }
        return trimmed.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
    }

    /// `name` in `folder`, with one slash between them; `name` alone when `folder` is empty.
    static func joined(_ folder: String, _ name: String) -> String {
        guard !folder.isEmpty else { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `path` without its trailing slashes, except the root's own.
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
