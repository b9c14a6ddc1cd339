import ArgumentParser
import CursesTerminal
@testable import Monitor
import Testing
@testable import installtop

/// What `attach` and `watch` make of a monitor that cannot be shown.
struct MonitorStartErrorsTests {
    @Test func aBadThemeOrNoTerminalEndsWithExitStatus2() {
        #expect(throws: ExitCode(ExitStatus.invalidUsage.rawValue)) {
            try MonitorStartErrors.presenting(for: "attach") { throw CursesTerminalError.notATerminal }
        }
        #expect(throws: ExitCode(ExitStatus.invalidUsage.rawValue)) {
            try MonitorStartErrors.presenting(for: "watch") { throw ThemeError(file: "", message: "no theme named nope") }
        }
    }

    @Test func whatTheMonitorReturnsOrOtherwiseThrowsPassesThrough() throws {
        #expect(try MonitorStartErrors.presenting(for: "attach") { 7 } == 7)
        #expect(throws: ExitCode(1)) {
            try MonitorStartErrors.presenting(for: "attach") { throw ExitCode(1) }
        }
    }
}
