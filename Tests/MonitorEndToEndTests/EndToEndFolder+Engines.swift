import APTTestSupport
import Testing

/// Engines of the board's tests without a network: each `installtop serve` on a socket of the
/// test's folder, its job a sleep, reached through a stand-in ssh that the test writes.
extension EndToEndFolder {
    /// `installtop serve` on `NAME.sock` in this folder for each of `names` (with `extra[NAME]`
    /// added to its arguments), no history, apt's state `apt`'s empty private root; returns
    /// once each listens (an engine that does not is recorded as an issue).
    func startEngines(_ names: [String], apt: APTTestRoot, extra: [String: [String]] = [:]) async throws -> [InstalltopChild] {
        var engines: [InstalltopChild] = []
        for name in names {
            engines.append(try InstalltopChild(["serve", "--socket", path("\(name).sock"), "--no-history",
                                                "--apt-config", apt.configuration] + (extra[name] ?? []), in: self))
        }
        for engine in engines {
            #expect(await EndToEndFolder.eventually { engine.stderr.contains("serving on") }, "\(engine.stderr)")
        }
        return engines
    }

    /// Queues `Job of NAME` on the engine at `NAME.sock`: one update that sleeps 900 s, aborted
    /// when its engine ends.
    func queueSleepingJob(on name: String) async throws {
        try write("sleep.sh", "#!/bin/sh\nexec sleep 900\n", executable: true)
        try write("\(name).yaml", """
            jobs:
              - name: Job of \(name)
                updates:
                  - {id: sleep, title: Sleep, install: [\(path("sleep.sh"))]}
            """)
        let submitted = try await InstalltopChild.run(["submit", path("\(name).yaml"), "--socket", path("\(name).sock")], in: self)
        #expect(submitted.status == 0, "\(submitted.stderr)")
    }
}
