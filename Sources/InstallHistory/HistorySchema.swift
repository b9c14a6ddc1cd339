import SQLiteStore

/// The history database's schema, as a list of named migrations.
///
/// Migrations are append-only: a released one is never edited, removed or reordered, because
/// databases in the field have recorded its name as applied. Change the schema by adding one.
enum HistorySchema {
    /// The migration names, in order.
    enum Migration: String, CaseIterable {
        /// The table of rule 19, with a running flag.
        case createHistoryEntry = "v1-createHistoryEntry"
        /// Who wrote a row, so rule 20's recovery can tell a dead writer from a live one.
        case addWriterIdentity = "v2-addWriterIdentity"
        /// Newest-first paging, the update and job filters, ETAs and recovery.
        case addQueryIndexes = "v3-addQueryIndexes"
        /// A package update's action and versions; NULL for every other update and for rows
        /// recorded before.
        case addPackageColumns = "v4-addPackageColumns"
        /// Who ran an observed job's transaction and on which dpkg (JSON), so recovery settles
        /// its rows from dpkg's state; NULL for every other row and for rows recorded before.
        case addObservedBy = "v5-addObservedBy"
        /// Job runs (`installtop history --jobs`), the versions kept for undo, and each row's
        /// run; NULL for rows recorded before, which belong to no run.
        case addJobRuns = "v6-addJobRuns"
        /// What an undo must not lose (rule 36): each kept version's conffiles with the hashes
        /// dpkg had recorded as their originals, and whether apt had the package marked
        /// automatically installed; NULL for rows recorded before (nothing restored for them).
        /// And a run's `keptForUndo`: an observed transaction whose versions the hooks kept
        /// (`hooks install --keep-for-undo`, rule 37), undoable like installtop's own.
        case addKeptConffilesAndMarks = "v7-addKeptConffilesAndMarks"
        /// A package job's run says who records it, what it plans and on which dpkg
        /// (`JobRunOrigin`): a run whose engine died is settled from dpkg's final state and log
        /// (`recoverInterruptedRuns`); NULL for runs recorded before, which stay as they are.
        case addRunOrigin = "v8-addRunOrigin"
        /// The root a dnf job's run acted on (`--installroot`; `/` for the system), so that its
        /// undo acts there; NULL for apt runs and for runs recorded before.
        case addInstallRoot = "v9-addInstallRoot"
        /// Commit-confirmed runs (Documentation/COMMIT-CONFIRMED.md): one `confirmWindow` row
        /// per armed run, with its deadline, its regressions and how it ended. Runs recorded
        /// before have none.
        case addConfirmWindows = "v10-addConfirmWindows"
        /// A window's package tool (`apt`, `dnf`: whose revert undoes the run) and the root a dnf
        /// job acted on; NULL in windows recorded before, which are apt's.
        case addConfirmWindowTool = "v11-addConfirmWindowTool"
        /// The services a commit-confirmed run's job restarted (JSON array of unit names), which
        /// its revert restarts again; NULL where systemd did not run and for windows recorded
        /// before.
        case addRestartedServices = "v12-addRestartedServices"
        /// When this history's engine first listed each pending version (`pendingFirstSeen`):
        /// the age a patch night's age gate reads (Documentation/POLICY.md).
        case addPendingFirstSeen = "v13-addPendingFirstSeen"
        /// Which checks a commit-confirmed window ran (its `--check` commands as JSON, its checks
        /// folder), so that its engine can run them again (a patch night's host after its
        /// reboot), and when that was last done; NULL in windows recorded before, whose checks
        /// are not run again.
        case addConfirmWindowChecks = "v14-addConfirmWindowChecks"
    }

    /// The expression rows are ordered by (newest first, then by id): when the update
    /// started, or when it was settled if it never started. Queries must spell it exactly
    /// like this for SQLite to use the indexes built on it.
    static let dateExpression = "coalesce(startedAt, endedAt)"

    /// The migrations' SQL for the tables GRDB's schema builder created is the SQL it wrote,
    /// so a database migrated now has the schema of one GRDB migrated.
    static var migrator: SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.registerMigration(Migration.createHistoryEntry.rawValue) { db in
            try db.execute(sql: """
                CREATE TABLE "historyEntry" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "operation" INTEGER NOT NULL, \
                "resultCode" INTEGER NOT NULL, "hResult" INTEGER NOT NULL, "unmappedResultCode" INTEGER NOT NULL DEFAULT 0, \
                "reason" TEXT, "startedAt" DATETIME, "endedAt" DATETIME, "updateID" TEXT NOT NULL, "revision" INTEGER NOT NULL, \
                "title" TEXT NOT NULL, "jobName" TEXT NOT NULL, "clientApplicationID" TEXT NOT NULL, "durationMs" INTEGER, \
                "outputTail" TEXT NOT NULL DEFAULT '', "isRunning" BOOLEAN NOT NULL DEFAULT 0)
                """)
        }
        migrator.registerMigration(Migration.addWriterIdentity.rawValue) { db in
            try db.execute(sql: """
                ALTER TABLE "historyEntry" ADD COLUMN "writerPID" INTEGER;
                ALTER TABLE "historyEntry" ADD COLUMN "writerStartTime" INTEGER;
                ALTER TABLE "historyEntry" ADD COLUMN "writerBootID" TEXT;
                """)
        }
        migrator.registerMigration(Migration.addQueryIndexes.rawValue) { db in
            let table = HistoryEntry.databaseTableName
            try db.execute(sql: """
                CREATE INDEX historyEntry_byDate ON \(table)(\(dateExpression), id);
                CREATE INDEX historyEntry_byUpdate ON \(table)(updateID, \(dateExpression), id);
                CREATE INDEX historyEntry_byJob ON \(table)(jobName, \(dateExpression), id);
                CREATE INDEX historyEntry_succeededDurations ON \(table)(updateID, durationMs)
                    WHERE resultCode = 2 AND durationMs IS NOT NULL;
                CREATE INDEX historyEntry_running ON \(table)(id) WHERE isRunning;
                """)
        }
        migrator.registerMigration(Migration.addPackageColumns.rawValue) { db in
            try db.execute(sql: """
                ALTER TABLE "historyEntry" ADD COLUMN "packageAction" TEXT;
                ALTER TABLE "historyEntry" ADD COLUMN "oldVersion" TEXT;
                ALTER TABLE "historyEntry" ADD COLUMN "newVersion" TEXT;
                """)
        }
        migrator.registerMigration(Migration.addObservedBy.rawValue) { db in
            try db.execute(sql: #"ALTER TABLE "historyEntry" ADD COLUMN "observedBy" TEXT"#)
        }
        migrator.registerMigration(Migration.addJobRuns.rawValue) { db in
            try db.execute(sql: """
                CREATE TABLE jobRun (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    name TEXT NOT NULL,
                    operation INTEGER NOT NULL,
                    startedAt DATETIME,
                    endedAt DATETIME,
                    resultCode INTEGER,
                    observed BOOLEAN NOT NULL DEFAULT 0,
                    undoneBy INTEGER,
                    undoOf INTEGER);
                CREATE TABLE keptVersion (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    jobRun INTEGER NOT NULL REFERENCES jobRun(id),
                    package TEXT NOT NULL,
                    version TEXT NOT NULL,
                    architecture TEXT,
                    file TEXT,
                    sizeBytes INTEGER,
                    source TEXT,
                    failure TEXT,
                    prunedAt DATETIME);
                CREATE INDEX keptVersion_byRun ON keptVersion(jobRun);
                ALTER TABLE \(HistoryEntry.databaseTableName) ADD COLUMN jobRun INTEGER;
                CREATE INDEX historyEntry_byJobRun ON \(HistoryEntry.databaseTableName)(jobRun) WHERE jobRun IS NOT NULL;
                """)
        }
        migrator.registerMigration(Migration.addKeptConffilesAndMarks.rawValue) { db in
            try db.execute(sql: """
                ALTER TABLE keptVersion ADD COLUMN conffiles TEXT;
                ALTER TABLE keptVersion ADD COLUMN automatic BOOLEAN;
                ALTER TABLE jobRun ADD COLUMN keptForUndo BOOLEAN NOT NULL DEFAULT 0;
                """)
        }
        migrator.registerMigration(Migration.addRunOrigin.rawValue) { db in
            try db.execute(sql: """
                ALTER TABLE jobRun ADD COLUMN writerPID INTEGER;
                ALTER TABLE jobRun ADD COLUMN writerStartTime INTEGER;
                ALTER TABLE jobRun ADD COLUMN writerBootID TEXT;
                ALTER TABLE jobRun ADD COLUMN plan TEXT;
                ALTER TABLE jobRun ADD COLUMN administrativeDirectory TEXT;
                ALTER TABLE jobRun ADD COLUMN dpkgLog TEXT;
                """)
        }
        migrator.registerMigration(Migration.addInstallRoot.rawValue) { db in
            try db.execute(sql: "ALTER TABLE jobRun ADD COLUMN installRoot TEXT")
        }
        migrator.registerMigration(Migration.addConfirmWindows.rawValue) { db in
            try db.execute(sql: """
                CREATE TABLE confirmWindow (
                    jobRun INTEGER PRIMARY KEY REFERENCES jobRun(id),
                    state TEXT NOT NULL,
                    armedAt DATETIME NOT NULL,
                    deadline DATETIME NOT NULL,
                    revertOnRegression BOOLEAN NOT NULL DEFAULT 0,
                    baseline TEXT,
                    checkedAfter TEXT,
                    regressions TEXT,
                    decidedAt DATETIME,
                    reason TEXT,
                    revertRun INTEGER,
                    aptConfig TEXT,
                    chroot TEXT,
                    reverterPID INTEGER,
                    reverterStartTime INTEGER,
                    reverterBootID TEXT);
                CREATE INDEX confirmWindow_open ON confirmWindow(deadline) WHERE state IN ('armed', 'reverting');
                """)
        }
        migrator.registerMigration(Migration.addConfirmWindowTool.rawValue) { db in
            try db.execute(sql: """
                ALTER TABLE confirmWindow ADD COLUMN tool TEXT;
                ALTER TABLE confirmWindow ADD COLUMN installRoot TEXT;
                """)
        }
        migrator.registerMigration(Migration.addRestartedServices.rawValue) { db in
            try db.execute(sql: #"ALTER TABLE "confirmWindow" ADD COLUMN "restartedServices" TEXT"#)
        }
        migrator.registerMigration(Migration.addPendingFirstSeen.rawValue) { db in
            try db.execute(sql: """
                CREATE TABLE pendingFirstSeen (
                    package TEXT NOT NULL,
                    version TEXT NOT NULL,
                    firstSeen DATETIME NOT NULL,
                    PRIMARY KEY (package, version));
                """)
        }
        migrator.registerMigration(Migration.addConfirmWindowChecks.rawValue) { db in
            try db.execute(sql: """
                ALTER TABLE confirmWindow ADD COLUMN checks TEXT;
                ALTER TABLE confirmWindow ADD COLUMN checksDirectory TEXT;
                ALTER TABLE confirmWindow ADD COLUMN checkedAgainAt DATETIME;
                """)
        }
        return migrator
    }
}
