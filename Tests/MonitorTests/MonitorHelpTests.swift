import Foundation
import TerminalUI
import Testing

@testable import Monitor

/// The key help fits every size the monitor draws at: at 40×12 it stays inside its border and
/// scrolls; where it fits, any key closes it as before.
@Suite("Monitor: the help overlay fits")
struct MonitorHelpTests {
    /// The rows of the help box in `lines` (from its top border to its bottom one).
    private func box(_ lines: [String]) throws -> ArraySlice<String> {
        let top = try #require(lines.firstIndex { $0.contains("┌ Keys ") })
        let bottom = try #require(lines[top...].dropFirst().firstIndex { $0.hasPrefix("└") })
        return lines[top...bottom]
    }

    @Test("At 40×12 every row of the help is inside its box, and the arrows scroll it to the last key")
    func fitsAndScrollsAt40x12() throws {
        var scenario = Scenario.product(width: 40, height: 12)
        scenario.press(.character("?"))
        let lines = scenario.render().lines
        let rows = try box(lines)
        #expect(rows.count <= 10, "within the body:\n\(lines.joined(separator: "\n"))")
        for row in rows.dropFirst().dropLast() {
            #expect(row.hasPrefix("│") && row.hasSuffix("│"), "a row over its border: \(row)\n\(lines.joined(separator: "\n"))")
        }
        #expect(lines.joined().contains("scroll"), "says it scrolls:\n\(lines.joined(separator: "\n"))")
        #expect(lines.last?.hasPrefix(" ") == true, "the footer is not overwritten")

        scenario.press(.end)
        #expect(scenario.state.overlay != nil, "End scrolls, it does not close")
        let end = scenario.screen()
        #expect(end.contains("quit (asks while jobs"), "the last key shows after End:\n\(end)")
        scenario.press(.home)
        #expect(scenario.screen().contains("↑ ↓  k j"))
        scenario.press(.character("x"))
        #expect(scenario.state.overlay == nil, "another key closes it")
    }

    @Test("Every key's text is there whole when scrolled through at 40×12 (wrapped, never cut)")
    func nothingCut() throws {
        var scenario = Scenario.product(width: 40, height: 12)
        scenario.press(.character("?"))
        var seen: [String] = []
        for _ in 0..<60 {
            seen += try box(scenario.render().lines).dropFirst().dropLast()
            scenario.press(.down)
        }
        let text = seen.joined(separator: "\n")
        #expect(!text.contains("…"), "\(text)")
        for (keys, action) in scenario.state.keyHelp {
            #expect(text.contains(action.split(separator: " ").first.map(String.init) ?? action), "\(keys)")
        }
    }

    @Test("Where the help fits (80×24), any key closes it, arrows included")
    func anyKeyClosesWhereItFits() {
        var scenario = Scenario.product()
        scenario.press(.character("?"))
        #expect(scenario.screen().contains("any key closes this help"))
        scenario.press(.down)
        #expect(scenario.state.overlay == nil)
    }
}
