import Foundation

/// A script for an update that waits (with a `sleep 300` child) until it is signalled, writing
/// its own pid to `script.pid` and its child's to `sleep.pid`, and `slow.yaml` running it as
/// update `slow` of job Slow, followed by `extraUpdates` (manifest lines of the same list).
func writeWaitingUpdate(in folder: TestFolder, extraUpdates: String = "") throws {
    try folder.script("wait.sh", """
        sleep 300 &
        echo $! > sleep.pid
        echo $$ > script.pid.tmp && mv script.pid.tmp script.pid
        wait
        """)
    try folder.write("slow.yaml", """
        jobs:
          - name: Slow
            updates:
              - {id: slow, title: Slow update, install: [./wait.sh]}
        \(extraUpdates)
        """)
}
