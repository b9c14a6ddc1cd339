PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1-createHistoryEntry');
INSERT INTO grdb_migrations VALUES('v2-addWriterIdentity');
INSERT INTO grdb_migrations VALUES('v3-addQueryIndexes');
INSERT INTO grdb_migrations VALUES('v4-addPackageColumns');
INSERT INTO grdb_migrations VALUES('v5-addObservedBy');
INSERT INTO grdb_migrations VALUES('v6-addJobRuns');
INSERT INTO grdb_migrations VALUES('v7-addKeptConffilesAndMarks');
INSERT INTO grdb_migrations VALUES('v8-addRunOrigin');
INSERT INTO grdb_migrations VALUES('v9-addInstallRoot');
INSERT INTO grdb_migrations VALUES('v10-addConfirmWindows');
INSERT INTO grdb_migrations VALUES('v11-addConfirmWindowTool');
INSERT INTO grdb_migrations VALUES('v12-addRestartedServices');
CREATE TABLE IF NOT EXISTS "historyEntry" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "operation" INTEGER NOT NULL, "resultCode" INTEGER NOT NULL, "hResult" INTEGER NOT NULL, "unmappedResultCode" INTEGER NOT NULL DEFAULT 0, "reason" TEXT, "startedAt" DATETIME, "endedAt" DATETIME, "updateID" TEXT NOT NULL, "revision" INTEGER NOT NULL, "title" TEXT NOT NULL, "jobName" TEXT NOT NULL, "clientApplicationID" TEXT NOT NULL, "durationMs" INTEGER, "outputTail" TEXT NOT NULL DEFAULT '', "isRunning" BOOLEAN NOT NULL DEFAULT 0, "writerPID" INTEGER, "writerStartTime" INTEGER, "writerBootID" TEXT, "packageAction" TEXT, "oldVersion" TEXT, "newVersion" TEXT, "observedBy" TEXT, jobRun INTEGER);
INSERT INTO historyEntry VALUES(1,1,2,0,0,NULL,'2023-11-14 22:13:20.000','2023-11-14 22:13:21.500','lab-a',1,'lab-a 2.0','apt upgrade','installtop',1500,replace('Unpacking lab-a\nSetting up lab-a (2.0)','\n',char(10)),0,4242,987654,'fixture-boot','upgrade','1.0','2.0',NULL,1);
INSERT INTO historyEntry VALUES(2,1,4,2149851147,1,'exited with status 1','2023-11-14 22:13:22.000','2023-11-14 22:13:23.250','lab-b',1,'lab-b 2.0','apt upgrade','installtop',1250,'it''s broken',0,4242,987654,'fixture-boot','install',NULL,'2.0',NULL,1);
INSERT INTO historyEntry VALUES(3,2,5,2149842955,0,NULL,NULL,'2023-11-14 22:13:30.000','script',1,'A script','Weekly','installtop',NULL,'',0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
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
    undoOf INTEGER, keptForUndo BOOLEAN NOT NULL DEFAULT 0, writerPID INTEGER, writerStartTime INTEGER, writerBootID TEXT, plan TEXT, administrativeDirectory TEXT, dpkgLog TEXT, installRoot TEXT);
INSERT INTO jobRun VALUES(1,'apt','apt upgrade',1,'2023-11-14 22:13:20.000','2023-11-14 22:13:24.000',3,0,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
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
    prunedAt DATETIME, conffiles TEXT, automatic BOOLEAN);
INSERT INTO keptVersion VALUES(1,1,'lab-a','1.0','all','/kept/lab-a_1.0_all.deb',1234,'/var/cache/apt/archives/lab-a_1.0_all.deb',NULL,NULL,replace('/etc/lab-a.conf d41d8cd98f00b204e9800998ecf8427e\n','\n',char(10)),0);
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
    reverterBootID TEXT, tool TEXT, installRoot TEXT, "restartedServices" TEXT);
INSERT INTO confirmWindow VALUES(1,'armed','2023-11-14 22:13:24.000','2023-11-14 22:18:24.000',0,'[{"check":"sshd -t","detail":"","isSet":false,"items":[],"passed":true,"ran":true}]','[{"check":"sshd -t","detail":"exit status 255","isSet":false,"items":[],"passed":false,"ran":true}]','[{"after":"failed","before":"passed","check":"sshd -t"}]',NULL,NULL,NULL,'/lab/apt.conf',NULL,NULL,NULL,NULL,'apt',NULL,'["ssh.service"]');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('jobRun',1);
INSERT INTO sqlite_sequence VALUES('historyEntry',3);
INSERT INTO sqlite_sequence VALUES('keptVersion',1);
CREATE INDEX historyEntry_byDate ON historyEntry(coalesce(startedAt, endedAt), id);
CREATE INDEX historyEntry_byUpdate ON historyEntry(updateID, coalesce(startedAt, endedAt), id);
CREATE INDEX historyEntry_byJob ON historyEntry(jobName, coalesce(startedAt, endedAt), id);
CREATE INDEX historyEntry_succeededDurations ON historyEntry(updateID, durationMs)
    WHERE resultCode = 2 AND durationMs IS NOT NULL;
CREATE INDEX historyEntry_running ON historyEntry(id) WHERE isRunning;
CREATE INDEX keptVersion_byRun ON keptVersion(jobRun);
CREATE INDEX historyEntry_byJobRun ON historyEntry(jobRun) WHERE jobRun IS NOT NULL;
CREATE INDEX confirmWindow_open ON confirmWindow(deadline) WHERE state IN ('armed', 'reverting');
COMMIT;
