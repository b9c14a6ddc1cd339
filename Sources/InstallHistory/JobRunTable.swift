import InstallEngine
/// Job runs as text for `installtop history --jobs`, in the order given: a line per run (id,
/// date in UTC, kind, result, whether it can be undone, name), then a line per package of its
/// plan (`lab-app 1.0 → 2.0`, with the update's result after it when it did not change the
/// package: `lab-k2 1.0 → 2.0 failed`), then, when it cannot be undone, why. Every line fits
/// `width` columns (at least 60): a longer cell is cut with "…", and a package's versions or
/// the reason go on indented lines of their own. Text from manifests and children is made
/// harmless as `HistoryTable` does.
public enum JobRunTable {
    /// Header plus the lines of each run, each ending in "\n"; an empty string for no runs.
    public static func render(_ runs: [JobRun], width: Int = 80) -> String {
        guard !runs.isEmpty else { return "" }
        let width = max(60, width)
        let idWidth = max(3, runs.map { String($0.id).count }.max() ?? 3)
        func padded(_ text: String, _ columns: Int) -> String {
            text.count >= columns ? text : text + String(repeating: " ", count: columns - text.count)
        }
        func fitted(_ line: String) -> String {
            HistoryTable.cell(line, limit: width)
        }
        let header = padded("RUN", idWidth) + "  " + padded("DATE (UTC)", 16) + "  " + padded("KIND", 8) + "  "
            + padded("RESULT", 11) + "  " + padded("UNDO", 4) + "  NAME"
        var text = fitted(header) + "\n"
        let indent = String(repeating: " ", count: idWidth + 2)
        for run in runs {
            let id = String(repeating: " ", count: idWidth - String(run.id).count) + String(run.id)
            let date = (run.startedAt ?? run.endedAt).map { String(HistoryTable.date($0).prefix(16)) } ?? "-"
            let result = run.resultCode?.jobWord ?? "running"
            let line = id + "  " + padded(date, 16) + "  " + padded(HistoryTable.cell(run.kind, limit: 8), 8) + "  "
                + padded(result, 11) + "  " + padded(run.undoable ? "yes" : "no", 4) + "  " + run.name
            text += fitted(line) + "\n"
            let nameWidth = min(32, run.packages.map(\.name.count).max() ?? 0)
            for package in run.packages {
                // A package the run did not change says so: left out, a failed run read as one
                // that changed nothing at all.
                let outcome = package.changedThePackage ? "" : "  " + package.resultCode.word
                text += fitted(indent + padded(HistoryTable.cell(package.name, limit: 32), nameWidth) + "  " + versions(of: package) + outcome) + "\n"
            }
            if let window = run.confirmWindow {
                for line in wrapped(ConfirmWindowText.line(window), width: width - indent.count) { text += fitted(indent + line) + "\n" }
                if let again = window.checkedAgainAt {
                    text += fitted(indent + "checks run again at \(ConfirmWindowText.time(again)) UTC") + "\n"
                }
                for regression in window.regressions {
                    for line in wrapped("regressed: " + HistoryTable.cell(regression.text, limit: .max), width: width - indent.count) {
                        text += fitted(indent + line) + "\n"
                    }
                }
            }
            if let reason = run.notUndoableBecause {
                for line in wrapped("not undoable: " + HistoryTable.cell(reason, limit: .max), width: width - indent.count) {
                    text += fitted(indent + line) + "\n"
                }
            }
        }
        return text
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word is cut by
    /// `fitted`): the reason is what says what to do, so none of it is cut off.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A package of a run on one line, as the monitor's history view lists it: `lab-app 1.0 →
    /// 2.0`, or with its update's result when the run did not change it (`lab-k2 1.0 → 2.0
    /// failed`).
    public static func line(of package: JobRunPackage) -> String {
        "\(package.name) \(versions(of: package))" + (package.changedThePackage ? "" : " " + package.resultCode.word)
    }

    /// `1.0 → 2.0`, `1.0 removed`, `2.0 installed`.
    public static func versions(of package: JobRunPackage) -> String {
        switch (package.oldVersion, package.newVersion) {
        case (let old?, let new?) where old != new: return "\(old) → \(new)"
        case (_, let new?): return package.action == .reinstall ? "\(new) reinstalled" : "\(new) installed"
        case (let old?, nil): return "\(old) \(package.action == .purge ? "purged" : "removed")"
        case (nil, nil): return package.action.rawValue
        }
    }
}
