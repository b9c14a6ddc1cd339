import Testing
@testable import installtop

/// `enroll`'s bars on a terminal, on values: a line per host with its steps done and what runs,
/// its end, lines cut short of the width, and a redraw that goes back over the block it drew.
@Suite("enroll: a bar per host")
struct EnrollProgressTests {
    @Test("each host's bar follows its steps; an end replaces what ran; waiting hosts say so")
    func barsFollowTheSteps() {
        var progress = EnrollProgress(hosts: ["h1", "web-2"], parallel: 1, unicode: true)
        #expect(progress.lines(width: 80) == [
            "h1     ░░░░░░░░░░░░  0/4  waiting (1 at a time)",
            "web-2  ░░░░░░░░░░░░  0/4  waiting (1 at a time)",
        ])
        progress.report(0, step: .package, state: .begin, text: "copying installtop_0.2.0_amd64.deb, 19.9 MB")
        progress.report(0, step: .package, state: .done, text: "installtop 0.2.0 installed")
        progress.report(0, step: .engine, state: .begin, text: "systemctl enable --now installtop.service")
        #expect(progress.lines(width: 80)[0] == "h1     ███░░░░░░░░░  1/4  engine: systemctl enable --now installtop.service")
        progress.report(0, step: .engine, state: .already, text: "answering on /run/installtop.sock")
        #expect(progress.lines(width: 80)[0] == "h1     ██████░░░░░░  2/4  engine: already: answering on /run/installtop.sock")
        progress.end(0, .enrolled(changed: [.package]))
        progress.report(1, step: .hooks, state: .failed, text: "hooks status found none")
        progress.end(1, .failed(step: .hooks, text: "hooks status found none", words: [], fix: "run it by hand"))
        #expect(progress.lines(width: 80) == [
            "h1     ████████████  4/4  enrolled",
            "web-2  ██████░░░░░░  2/4  failed at hooks",
        ])
    }

    @Test("lines stay short of the width (a wrapped line would break the redraw); without UTF-8 the bar is ASCII")
    func narrowAndASCII() {
        var progress = EnrollProgress(hosts: ["h1"], parallel: 2, unicode: false)
        progress.report(0, step: .package, state: .begin, text: "copying installtop_0.2.0_amd64.deb, 19.9 MB (it has 0.1.0, dpkg says ii)")
        let line = progress.lines(width: 40)[0]
        #expect(line == "h1  ------------  0/4  package: copyin~", "\(line)")
        #expect(line.count == 39)
    }

    @Test("a redraw goes up over the lines drawn before, clearing each")
    func redrawGoesBack() {
        var progress = EnrollProgress(hosts: ["h1", "h2"], parallel: 2, unicode: true)
        let first = progress.redraw(width: 80)
        #expect(!first.contains("\u{1B}[2A") && first.components(separatedBy: "\r\u{1B}[2K").count == 3)
        progress.report(1, step: .package, state: .done, text: "installed")
        let second = progress.redraw(width: 80)
        #expect(second.hasPrefix("\u{1B}[2A\r\u{1B}[2K"), "\(second.debugDescription)")
        #expect(second.contains("h2  ███░░░░░░░░░  1/4  package: installed\n"), "\(second.debugDescription)")
    }
}
