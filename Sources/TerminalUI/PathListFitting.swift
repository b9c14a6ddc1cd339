/// A list of file paths in a number of columns, losing as little as it can: the monitor's job
/// detail and `installtop restarts` show a process's stale files with it.
public enum PathListFitting {
    /// `paths`, joined by ", ", in `width` columns: whole, else by file name (what follows the
    /// last `/`, so a mark after the name such as ` (deleted)` stays), else as many names as fit
    /// with `+N` for the rest (the first name cut short with `ellipsis` when even it does not fit).
    public static func fit(_ paths: [String], toWidth width: Int, ellipsis: Character) -> String {
        let whole = paths.joined(separator: ", ")
        if DisplayWidth.of(whole) <= width { return whole }
        let names = paths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        let short = names.joined(separator: ", ")
        if DisplayWidth.of(short) <= width { return short }
        if names.count == 1 { return TextTruncation.truncate(names[0], toWidth: width, ellipsis: ellipsis) }
        for shown in stride(from: names.count - 1, through: 1, by: -1) {
            let text = names.prefix(shown).joined(separator: ", ") + " +\(names.count - shown)"
            if DisplayWidth.of(text) <= width { return text }
        }
        let rest = " +\(names.count - 1)"
        return TextTruncation.truncate(names[0], toWidth: width - DisplayWidth.of(rest), ellipsis: ellipsis) + rest
    }
}
