import InstallHistory
import Monitor

extension JobRunRow {
    /// The fields of `run` the history view's runs list shows: the packages it changed with
    /// their versions, as `installtop history --jobs` lists them.
    init(run: JobRun) {
        self.init(
            id: Int(run.id), date: run.startedAt ?? run.endedAt, kind: run.kind, name: run.name, resultCode: run.resultCode,
            packages: run.packages.filter(\.changedThePackage).map { "\($0.name) \(JobRunTable.versions(of: $0))" },
            notUndoableBecause: run.notUndoableBecause)
    }
}
