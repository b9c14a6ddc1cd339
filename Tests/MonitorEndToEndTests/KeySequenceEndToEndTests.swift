import Foundation
import Testing

/// Keys as terminals and multiplexers really send them: End as `ESC [ 4 ~` (tmux, screen, the
/// Linux console) and Home as `ESC [ 1 ~`, which xterm-256color's description does not list,
/// must move the view, never reach it as Escape (which closes it).
@Suite("Monitor end to end: key sequences", .serialized)
struct KeySequenceEndToEndTests {
    @Test("In the full output, ESC[1~ goes to the oldest line and ESC[4~ back to the newest; the view stays open")
    func homeAndEndVariantsScroll() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        try folder.write("manifest.yaml", """
            jobs:
              - name: Chatty job
                updates:
                  - id: chatty
                    title: Chatty update
                    install: "i=1; while [ $i -le 200 ]; do echo output line $i; i=$((i + 1)); done"

            """)
        let binary = try EndToEndFolder.binary()
        let tmux = try TmuxSession(home: folder.url, command:
            "'\(binary)' run '\(folder.path("manifest.yaml"))' --no-history; \(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("the job succeeded") { $0.contains("succeeded") }
        tmux.send("Tab")
        tmux.send("Enter")
        await tmux.waitForScreen("the full output at its newest line") { $0.contains("of 200") && $0.contains("output line 200") }
        let sequences: [(name: String, home: String, end: String)] = [
            ("VT220", "\u{1B}[1~", "\u{1B}[4~"), ("rxvt", "\u{1B}[7~", "\u{1B}[8~"), ("xterm", "\u{1B}[H", "\u{1B}[F"),
            ("xterm application mode", "\u{1B}OH", "\u{1B}OF"),
        ]
        for sequence in sequences {
            tmux.sendRaw(sequence.home)
            await tmux.waitForScreen("\(sequence.name) Home shows the oldest line") { $0.contains("lines 1-") && $0.contains("output line 1 ") }
            tmux.sendRaw(sequence.end)
            let newest = await tmux.waitForScreen("\(sequence.name) End shows the newest line again") {
                $0.contains("output line 200") && !$0.contains("lines 1-")
            }
            #expect(newest?.contains("Esc closes") == true, "the view is still open after \(sequence.name) End")
        }
        tmux.send("Escape")
        await tmux.waitForScreen("the view closed") { !$0.contains("Esc closes") }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
    }
}
