import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

@Suite("Monitor frames")
struct MonitorRenderTests {
    @Test func productPictureAt80x24() {
        expectSnapshot(Scenario.product(width: 80, height: 24).render(), named: "product-80x24")
    }

    @Test func productPictureAt120x40() {
        expectSnapshot(Scenario.product(width: 120, height: 40).render(), named: "product-120x40")
    }

    @Test func productPictureAt40x12() {
        expectSnapshot(Scenario.product(width: 40, height: 12).render(), named: "product-40x12")
    }

    @Test func tooSmall() {
        expectSnapshot(Scenario.product(width: 39, height: 11).render(), named: "too-small-39x11")
        expectSnapshot(Scenario.product(width: 20, height: 5).render(), named: "too-small-20x5")
    }

    @Test func asciiFallback() {
        let buffer = Scenario.product(width: 80, height: 24, glyphs: .ascii).render()
        expectSnapshot(buffer, named: "product-ascii-80x24")
        for line in buffer.lines {
            #expect(line.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "not ASCII: \(line)")
        }
    }

    @Test func wideTitles() {
        var scenario = Scenario(width: 80, height: 16)
        let job = scenario.queue("日本語のジョブ名がとても長い場合", ["安全更新プログラム カーネル 6.1", "🎉 party 🇫🇷 flags 👩‍👩‍👧", "café ﬁnal e\u{301}"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.progress(job, 0, 62.5, message: "展開しています…")
        scenario.output(job, 0, "出力行：テスト🎉")
        let buffer = scenario.render()
        expectSnapshot(buffer, named: "wide-titles-80x16")
        // Every row fills exactly the width: no wide glyph pushed a border out of place.
        for y in 0..<buffer.height {
            var columns = 0
            for x in 0..<buffer.width where !(buffer[x, y]!.isContinuation) { columns += Int(buffer[x, y]!.width) }
            #expect(columns == buffer.width)
        }
    }

    @Test func monoThemeUsesNoColourAndReverseSelection() {
        let scenario = Scenario.product()
        let buffer = scenario.render(theme: Themes.mono)
        expectSnapshot(buffer, named: "product-mono-80x24")
        for cell in buffer.cells {
            #expect(cell.style.foreground == .default && cell.style.background == .default)
        }
        let selectedRow = (0..<buffer.height).first { buffer.lines[$0].hasPrefix("│▶ Security updates") }!
        #expect(buffer.style(atX: 3, y: selectedRow).reverse)
    }

    @Test func noColorKeepsSelectionVisible() {
        let theme = Themes.default.withoutColors()
        for role in ThemeRole.allCases {
            #expect(theme[role].foreground == .default && theme[role].background == .default)
        }
        #expect(theme[.selection].reverse)
        #expect(!theme[.text].reverse)
        #expect(theme[.failed].bold, "attributes stay")
    }

    @Test func failedRowsUseTheFailedStyle() throws {
        var scenario = Scenario.product()
        // Select Drivers (the second job) to see its failed update.
        scenario.press(.home, .down)
        let buffer = scenario.render()
        let failed = Themes.default[.failed]
        let row = try #require((0..<buffer.height).first { buffer.lines[$0].contains("firmware-iwlwifi") })
        let line = buffer.lines[row]
        let title = try #require(line.range(of: "firmware-iwlwifi"))
        // A failed update that ran shows how far it got, in the failed style.
        let percent = try #require(line.range(of: "%", range: title.upperBound..<line.endIndex), "\(line)")
        let column = line.distance(from: line.startIndex, to: percent.lowerBound)
        #expect(buffer.style(atX: column, y: row) == failed)
        // The update's own mark, not the jobs pane's on the same line.
        let markColumn = line.distance(from: line.startIndex, to: line[..<title.lowerBound].lastIndex(of: "✖")!)
        #expect(buffer.style(atX: markColumn, y: row).foreground == .red)
        let succeededRow = (0..<buffer.height).first { buffer.lines[$0].contains("nvidia 535") }!
        let succeededLine = buffer.lines[succeededRow]
        let check = succeededLine.distance(from: succeededLine.startIndex, to: succeededLine.firstIndex(of: "✔")!)
        #expect(buffer.style(atX: check, y: succeededRow).foreground == .green)
    }

    @Test func confirmationDialog() {
        var scenario = Scenario.product()
        scenario.press(.character("q"))
        expectSnapshot(scenario.render(), named: "confirm-quit-80x24")
    }

    @Test func helpOverlay() {
        var scenario = Scenario.product(width: 80, height: 24)
        scenario.press(.character("?"))
        expectSnapshot(scenario.render(), named: "help-80x24")
    }

    @Test func tenThousandUpdatesDrawOnlyVisibleRows() {
        var scenario = Scenario(width: 200, height: 60)
        let job = scenario.queue("Huge", (0..<10_000).map { "update number \($0)" })
        scenario.startJob(job)
        scenario.startUpdate(job, 5_000)
        scenario.progress(job, 5_000, 30)
        let screen = scenario.screen()
        #expect(screen.contains("update number 5000"))
        #expect(screen.contains("0/10000"))
    }
}

extension MonitorRenderTests {
    @Test("Enter on a finished update shows its result, code, exit status and reason above the output")
    func fullOutputShowsTheResult() throws {
        var scenario = Scenario.product()
        // Drivers (the second job), its updates pane, its second update: firmware-iwlwifi failed.
        scenario.press(.home, .down, .tab, .home, .down)
        #expect(scenario.state.selectedUpdateIndex == 1)
        scenario.press(.enter)
        let lines = scenario.render().lines
        let summary = try #require(lines.first { $0.contains("✖ failed · 0x8024200B") }, "\(lines.joined(separator: "\n"))")
        #expect(summary.contains("exit 1") && summary.contains("exited with status 1"), "\(summary)")
    }

    @Test("at 120 columns the title column takes the room, not the status text: 24 characters show whole")
    func titlesGetTheRoomAt120Columns() throws {
        var scenario = Scenario(width: 120, height: 40)
        let job = scenario.queue("Firmware", ["firmware-misc-nonfree 20"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.progress(job, 0, 50, message: "Unpacking")
        let screen = scenario.screen()
        #expect(screen.contains("▶ firmware-misc-nonfree 20 "), "\(screen)")
        #expect(screen.contains("Unpacking"), "the status text still shows")
    }

    @Test("once every job has ended, the header says what got done: a failed update is not done, as in the job's row")
    func headerCountsWhatGotDone() throws {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.queue("Tools", ["jq", "htop", "curl", "git", "vim"])
        scenario.run(job, codes: [.succeeded, .succeeded, .succeeded, .succeeded, .failed])
        let header = try #require(scenario.render().lines.first)
        #expect(header.contains("0 running · 4/5 updates") && header.contains("90%") && !header.contains("100%"), "\(header)")
        let row = try #require(scenario.render().lines.first { $0.contains("✖ vim") })
        #expect(row.contains("50%"), "the failed update's own bar keeps how far it got: \(row)")
    }

    @Test("the footer of the full output shows the keys that act there, not the main view's")
    func fullOutputFooterShowsItsKeys() throws {
        var scenario = Scenario.product()
        scenario.press(.tab, .enter)
        let footer = try #require(scenario.render().lines.last)
        #expect(footer.contains("↑↓ scroll") && footer.contains("PgUp PgDn page") && footer.contains("Esc close"), "\(footer)")
        #expect(!footer.contains("a abort") && !footer.contains("q quit"), "\(footer)")
        scenario.press(.escape)
        #expect(try #require(scenario.render().lines.last).contains("a abort"))
    }
}
