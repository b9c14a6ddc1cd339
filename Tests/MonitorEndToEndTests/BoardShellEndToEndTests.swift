import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// The board's `s` in tmux, without a network: a stand-in ssh runs the host's bridge to an
/// engine of the test's folder, and for a shell (`ssh -t` with no remote command) an
/// interactive `/bin/sh` standing in for the host's login shell.
@Suite("The board's shell on a host end to end", .serialized)
struct BoardShellEndToEndTests {
    @Test("s opens a shell on web1; a command typed there runs, hostile output and all; exit gives the board back redrawn, the terminal's modes reset; h, Tab, Enter plays it on the board; the recording replays that command's output; an unreachable host's shell shows ssh's words and the board comes back")
    func recordedShell() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        let quietAPT = try APTTestRoot(folder: folder.path("quiet-apt"))
        var engines: [InstalltopChild] = []
        // SIGTERM, SIGKILL after 5 s: no engine is left behind, also when an expectation fails.
        defer { engines.removeAll() }
        engines = try await folder.startEngines(["web1"], apt: quietAPT)
        try FileManager.default.createDirectory(atPath: folder.path("bin"), withIntermediateDirectories: true)
        try folder.write("bin/ssh", """
            #!/bin/sh
            # Options, `--`, the host, and the remote command when one is given (none for a shell).
            while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
            case $2 in
              web1) ;;
              *) echo "ssh: connect to host $2 port 22: Connection refused" >&2; exit 255 ;;
            esac
            if [ "$#" -ge 3 ]; then
              # The board keeping a shell's recording on the host: the bridge with its options.
              case $3 in *--keep-shell*) eval "set -- ${3#installtop bridge}"; exec '\(binary)' bridge --socket '\(folder.path("web1.sock"))' "$@" ;; esac
              exec '\(binary)' bridge --socket '\(folder.path("web1.sock"))'
            fi
            cd '\(folder.path("."))' && PS1='web1$ ' exec /bin/sh -i
            """, executable: true)
        let history = folder.path("operator/history.sqlite3")
        let command = "PATH='\(folder.path("bin"))':\"$PATH\" '\(binary)' attach --host web1 --host down --history-db '\(history)'"
            + " 2> '\(folder.path("attach.err"))'; \(folder.exitStatus(to: "rc")); sleep 3600"
        let tmux = try TmuxSession(width: 100, height: 30, home: folder.url, command: command)
        defer { tmux.close() }
        await tmux.waitForScreen("web1 idle, down unreachable") { screen in
            screen.contains("2 hosts · 1 idle · 1 unreachable") && BoardScreen.isIdle("web1", in: screen)
        }

        tmux.send("Home")
        tmux.send("s")
        await tmux.waitForScreen("the shell's prompt, the board gone") { screen in
            screen.contains("installtop: shell on web1 (recorded as run 1); exit the shell to return to the board")
                && screen.contains("web1$") && !screen.contains("2 hosts")
        }
        tmux.send("-l", "echo shell-says-$((6*7))")
        tmux.send("Enter")
        await tmux.waitForScreen("the command's output") { $0.contains("\nshell-says-42") }
        // Output that would leave a terminal unusable: the alternate screen, mouse reports,
        // insert mode, an OSC string never ended, bytes that are not UTF-8.
        tmux.send("-l", #"printf '\033[?1049h\033[?1000h\033[4h\033]0;evil'; printf '\377\376\n'; exit"#)
        tmux.send("Enter")
        // How the shell ended stays until the next key; web1's engine keeps no history, so the
        // copy for the host is not kept there, and the sentence says so.
        let back = await tmux.waitForScreen("the board back, redrawn, saying how the shell ended") { screen in
            screen.contains("2 hosts · 1 idle · 1 unreachable") && BoardScreen.isIdle("web1", in: screen)
                && screen.contains("Shell on web1 ended after ") && screen.contains("installtop replay 1")
        }
        #expect(back?.contains("shell-says-42") == false, "the board covers the whole screen")
        #expect(tmux.format("#{mouse_any_flag} #{insert_flag}") == "0 0", "mouse reports and insert mode are off again")
        #expect(tmux.paneTitle() != "evil")
        // The host's history lists the shell (from the operator's history: web1's engine keeps
        // none), and Enter plays it back on the terminal until a key returns to the board.
        tmux.send("h")
        tmux.send("Tab")
        await tmux.waitForScreen("the shell among web1's runs") { screen in
            screen.contains("History of web1") && screen.contains("shell on web1") && screen.contains("Enter play")
        }
        tmux.send("Enter")
        await tmux.waitForScreen("the recording played, waiting for a key") { screen in
            screen.contains("installtop: run 1, shell on web1") && screen.contains("\nshell-says-42")
                && screen.contains("installtop: end of run 1; a key returns to the board")
        }
        tmux.send("x")
        await tmux.waitForScreen("the history view back, saying what was played") { screen in
            screen.contains("History of web1") && screen.contains("Played run 1, shell on web1")
        }
        #expect(tmux.format("#{mouse_any_flag} #{insert_flag}") == "0 0")
        tmux.send("Escape")
        // The board still answers its keys.
        tmux.send("End")
        await tmux.waitForScreen("down selected") { $0.contains("down: unreachable for") }
        tmux.send("s")
        await tmux.waitForScreen("ssh's words for down, and the board back") { screen in
            screen.contains("2 hosts · 1 idle · 1 unreachable")
                && screen.contains("Shell on down failed (exit status 255 after 0:00): ssh: connect to host down port 22")
        }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(folder.read("attach.err") ?? "")")

        // In the operator's history: the two shells, with how they ended.
        let runs = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", history], in: folder)
        #expect(runs.status == 0, "\(runs.stderr)")
        let objects = runs.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0["kind"] as? String } == ["shell", "shell"], "\(runs.stdout)")
        #expect(objects.map { $0["name"] as? String } == ["shell on down", "shell on web1"], "\(runs.stdout)")
        #expect(objects.map { $0["result"] as? String } == ["failed", "succeeded"], "\(runs.stdout)")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path("operator/shells"))[.posixPermissions] as? Int
        #expect(mode == 0o700)

        // The recording played back: the command and its output, byte for byte as the host
        // wrote them, invalid UTF-8 as U+FFFD.
        let played = try await InstalltopChild.run(["replay", "1", "--history-db", history, "--instant"], in: folder)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.contains("echo shell-says-$((6*7))\r\nshell-says-42\r\n"), "\(played.stdout.debugDescription)")
        #expect(played.stdout.contains("\u{1B}[?1049h\u{1B}[?1000h\u{1B}[4h\u{1B}]0;evil\u{FFFD}\u{FFFD}\r\n"), "\(played.stdout.debugDescription)")
        #expect(played.stderr.contains("installtop: run 1, shell on web1, "), "\(played.stderr)")

        // And on a terminal, with its pauses: the output shows, and the terminal is sane after.
        let replay = "'\(binary)' replay 1 --history-db '\(history)' --speed 5; echo replay-rc=$?; sleep 3600"
        let player = try TmuxSession(width: 100, height: 30, home: folder.url, command: replay)
        defer { player.close() }
        await player.waitForScreen("the replayed command's output, then the end") { screen in
            screen.contains("shell-says-42") && screen.contains("installtop: end of the recording") && screen.contains("replay-rc=0")
        }
        #expect(player.format("#{alternate_on} #{mouse_any_flag} #{insert_flag}") == "0 0 0")
    }

    @Test("over the operator's real ssh to a namespace host (the board's ssh_config): s gives a login shell on h1, its output recorded and replayed",
          .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
    func overRealSSH() async throws {
        let fleet = try FleetTestHosts(count: 1)
        defer { fleet.tearDown() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        var engines: [InstalltopChild] = []
        defer { engines.removeAll() }
        // h1's engine keeps a history: the board keeps the shell's recording there too.
        let hostHistory = folder.path("h1-history.sqlite3")
        engines.append(try fleet.serve(onHost: 1, apt: try APTTestRoot(folder: folder.path("quiet-apt")), folder: folder, history: hostHistory))
        #expect(await EndToEndFolder.eventually { engines[0].stderr.contains("serving on") }, "\(engines[0].stderr)")
        // HOME is the test's folder: the board records in its own history there.
        let tmux = try BoardScreen.attach(["h1"], fleet: fleet, folder: folder)
        defer { tmux.close() }
        await tmux.waitForScreen("h1 idle") { BoardScreen.isIdle("h1", in: $0) }
        tmux.send("s")
        await tmux.waitForScreen("the shell on h1") { $0.contains("installtop: shell on h1 (recorded as run 1)") }
        tmux.send("-l", "echo on-$(hostname)-$((6*7))")
        tmux.send("Enter")
        await tmux.waitForScreen("the command ran on h1") { $0.contains("\non-h1-42") }
        tmux.send("-l", "exit")
        tmux.send("Enter")
        await tmux.waitForScreen("the board back, the recording kept on h1 too") { screen in
            BoardScreen.isIdle("h1", in: screen) && screen.contains("Shell on h1 ended after 0:") && screen.contains("installtop replay 1")
                && screen.contains("kept on h1 as its run 1")
        }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(folder.read("attach.err") ?? "")")
        let history = folder.path(".local/state/installtop/history.sqlite3")
        let played = try await InstalltopChild.run(["replay", "1", "--instant", "--history-db", history], in: folder)
        #expect(played.status == 0, "\(played.stderr)")
        // bash there turns bracketed paste on and off around each command: the output as it came.
        #expect(played.stdout.contains("@h1") && played.stdout.contains("on-h1-42\r\n"), "\(played.stdout.debugDescription)")
        // The host's own history has it, kind shell, and plays the same bytes.
        let onHost = try await InstalltopChild.run(["replay", "1", "--instant", "--history-db", hostHistory], in: folder)
        #expect(onHost.status == 0 && onHost.stdout == played.stdout, "\(onHost.stderr)")
        let hostRuns = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", hostHistory], in: folder)
        #expect(hostRuns.stdout.contains("\"kind\":\"shell\"") && hostRuns.stdout.contains("\"name\":\"shell on h1\""), "\(hostRuns.stdout)")
    }
}
