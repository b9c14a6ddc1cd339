import InstallHistory
import Monitor

extension JobRunRow {
    /// The fields of `run` the history view's runs list shows: its packages with their versions
    /// (and the result of those it did not change), as `installtop history --jobs` lists them.
    init(run: JobRun) {
        self.init(
            id: Int(run.id), date: run.startedAt ?? run.endedAt, kind: run.kind, name: run.name, resultCode: run.resultCode,
            packages: run.packages.map(JobRunTable.line(of:)),
            notUndoableBecause: run.notUndoableBecause)
    }
}
