import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The start question of an apt plan hides nothing: the counts are never cut, removals and
/// upgrades (old → new) have their own marks and colours, Essential packages are named, and a
/// plan longer than the dialog scrolls to its last package while y and n still answer.
@Suite("Monitor: the plan in the start question")
struct MonitorPlanDialogTests {
    /// `apt install chrony`: installs chrony, removes systemd-timesyncd, and (here) upgrades the
    /// Essential perl-base.
    static let chrony: [PackageChange] = [
        PackageChange(package: "perl-base", action: .upgrade, oldVersion: "5.36.0-7", newVersion: "5.36.0-7+deb12u2", essential: true),
        PackageChange(package: "chrony", action: .install, newVersion: "4.3-2+deb12u1"),
        PackageChange(package: "systemd-timesyncd", action: .remove, oldVersion: "252.30-1~deb12u2"),
    ]
    static let chronyName = "apt install chrony · 1 to install, 1 to upgrade, 1 to remove · 288.7 kB to download"

    /// 68 packages: 66 installs, the upgrade of perl-base (Essential), and one of zlib1g last.
    static let lamp: [PackageChange] = (1...66).map { PackageChange(package: "lib-lamp-\($0)", action: .install, newVersion: "1.\($0)") }
        + [PackageChange(package: "perl-base", action: .upgrade, oldVersion: "5.36.0-7", newVersion: "5.36.0-7+deb12u2", essential: true),
           PackageChange(package: "zlib1g", action: .upgrade, oldVersion: "1:1.2.13.dfsg-1", newVersion: "1:1.2.13.dfsg-1+b1")]
    static let lampName = "apt install apache2 mariadb-server php · 66 to install, 2 to upgrade · 41.2 MB to download"

    private func scenario(width: Int, height: Int, name: String, changes: [PackageChange]) -> Scenario {
        var scenario = Scenario(width: width, height: height)
        let updates = changes.map { Update(id: $0.package, title: $0.title, package: $0) }
        scenario.send(.jobQueued(JobDescriptor(
            id: 1, name: name, operation: .install, updates: updates, stopOnFailure: false, awaitsConfirmation: true, runByDriver: true)))
        return scenario
    }

    /// The dialog's lines: what lies inside its box.
    private func dialogLines(_ scenario: Scenario) -> [String] {
        let dialog = PlanDialog(job: 1, name: "", state: scenario.state)
        let lines = scenario.render().lines
        return lines[(dialog.box.y + 1)..<(dialog.box.maxY - 1)].map { line in
            String(Array(line)[(dialog.box.x + 1)..<(dialog.box.maxX - 1)])
        }
    }

    /// The dialog's text as one line, wrapped lines joined: what a reader takes in.
    private func dialogText(_ scenario: Scenario) -> String {
        dialogLines(scenario).joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    @Test("apt install chrony at 80×24 and 40×12: the counts whole, the removal and the Essential upgrade explicit", arguments: [(80, 24), (40, 12)])
    func chronyPlan(width: Int, height: Int) throws {
        let scenario = scenario(width: width, height: height, name: Self.chronyName, changes: Self.chrony)
        expectSnapshot(scenario.render(), named: "plan-chrony-\(width)x\(height)")
        let text = dialogText(scenario)
        #expect(text.contains("1 to install, 1 to upgrade, 1 to remove · 288.7 kB to download?"), "\(text)")
        #expect(text.contains("upgrades an Essential package: perl-base"), "\(text)")
        let lines = dialogLines(scenario)
        let removal = try #require(lines.first { $0.contains("systemd-timesyncd") }, "\(lines)")
        #expect(removal.hasPrefix("− remove"), "a removal has its own mark and word: \(removal)")
        let upgrade = try #require(lines.first { $0.contains("↑ upgrade   perl-base 5.36.") }, "\(lines)")
        let marker = try #require(upgrade.range(of: " essential"), "\(upgrade)")
        // Removals first, in the failure colour; `essential` in the warning colour.
        #expect(lines.firstIndex(of: removal)! < lines.firstIndex(of: upgrade)!)
        let buffer = scenario.render()
        let box = PlanDialog(job: 1, name: "", state: scenario.state).box
        let removalY = box.y + 1 + lines.firstIndex(of: removal)!
        #expect(buffer.style(atX: box.x + 1, y: removalY) == Themes.default[.failed])
        let upgradeY = box.y + 1 + lines.firstIndex(of: upgrade)!
        let markerX = box.x + 1 + upgrade.distance(from: upgrade.startIndex, to: marker.lowerBound) + 1
        #expect(buffer.style(atX: markerX, y: upgradeY) == Themes.default[.warning])
        #expect(buffer.style(atX: box.x + 1, y: upgradeY) == Themes.default[.running])
    }

    @Test("An undo's plan says downgrade for every version going back, with its own mark, in Unicode and ASCII")
    func undoPlanSaysDowngrade() throws {
        let changes = [
            PackageChange(package: "perl-base", action: .upgrade, oldVersion: "5.36.0-7+deb12u4", newVersion: "5.36.0-7+deb12u3", essential: true),
            PackageChange(package: "libssl3", action: .upgrade, oldVersion: "3.0.22-1~deb12u2", newVersion: "3.0.20-1~deb12u2"),
            PackageChange(package: "lab-extra", action: .remove, oldVersion: "1.0"),
        ]
        for glyphs in [MonitorGlyphs.unicode, .ascii] {
            var scenario = Scenario(width: 80, height: 24, glyphs: glyphs)
            let updates = changes.map { Update(id: $0.package, title: $0.title, package: $0) }
            scenario.send(.jobQueued(JobDescriptor(
                id: 1, name: "apt undo 5 · 2 to downgrade, 1 to remove", operation: .uninstall, updates: updates, stopOnFailure: false,
                awaitsConfirmation: true, runByDriver: true, undoOf: 5)))
            let lines = dialogLines(scenario)
            let down = glyphs.downgrade
            #expect(lines.contains { $0.hasPrefix("\(down) downgrade libssl3 3.0.22-1~deb12u2 ") && $0.contains(" 3.0.20-1~deb12u2") },
                    "\(lines)")
            #expect(lines.contains { $0.hasPrefix("\(down) downgrade perl-base") && $0.contains("essential") }, "\(lines)")
            #expect(lines.contains { $0.contains("remove") && $0.contains("lab-extra") }, "\(lines)")
            #expect(!lines.contains { $0.contains("upgrade ") && !$0.contains("downgrade") }, "no version going back reads upgrade: \(lines)")
            #expect(dialogText(scenario).contains("downgrades an Essential package: perl-base"))
        }
    }

    @Test("68 packages at 80×24 and 40×12: the counts whole; the keys scroll to the last package; y still answers", arguments: [(80, 24), (40, 12)])
    func longPlanScrolls(width: Int, height: Int) throws {
        var scenario = scenario(width: width, height: height, name: Self.lampName, changes: Self.lamp)
        expectSnapshot(scenario.render(), named: "plan-68-\(width)x\(height)")
        let heading = dialogText(scenario)
        #expect(heading.contains("66 to install, 2 to upgrade · 41.2 MB to download?"), "\(heading)")
        #expect(heading.contains("upgrades an Essential package: perl-base"), "\(heading)")
        // Upgrades come before installs, so perl-base shows at once.
        #expect(dialogLines(scenario).contains { $0.contains("↑ upgrade   perl-base 5.36.") }, "\(dialogLines(scenario))")
        #expect(!dialogLines(scenario).contains { $0.contains("lib-lamp-66 ") })

        scenario.press(.pageDown)
        #expect(scenario.state.overlay != nil)
        guard case .confirm(.startJob(_, _, _, let paged))? = scenario.state.overlay else {
            Issue.record("the question closed on PgDn")
            return
        }
        #expect(paged > 0, "PgDn scrolls")
        for _ in 0..<80 { scenario.press(.down) }
        #expect(dialogLines(scenario).contains { $0.contains("lib-lamp-66 1.66") }, "the last package: \(dialogLines(scenario))")
        let keys = try #require(dialogLines(scenario).last)
        #expect(keys.contains("of 68"), "\(keys)")
        scenario.press(.up)
        #expect(!dialogLines(scenario).contains { $0.contains("lib-lamp-66 1.66") }, "up scrolls back")
        scenario.press(.end)
        #expect(dialogLines(scenario).contains { $0.contains("lib-lamp-66 1.66") })
        scenario.press(.home)
        #expect(dialogLines(scenario).contains { $0.contains("perl-base") })

        let effects = scenario.press(.character("y"))
        #expect(Scenario.commands(effects) == [.command(.confirm(job: 1))])
        #expect(scenario.state.overlay == nil)
    }

    @Test("n still answers no after scrolling")
    func noAfterScrolling() {
        var scenario = scenario(width: 80, height: 24, name: Self.lampName, changes: Self.lamp)
        scenario.press(.pageDown, .pageDown)
        let effects = scenario.press(.character("n"))
        #expect(Scenario.commands(effects) == [.command(.decline(job: 1)), .quit(abortRunning: false)])
        #expect(scenario.state.overlay == nil)
    }

    @Test("ASCII: removals and upgrades keep marks of their own")
    func asciiMarks() {
        var scenario = Scenario(width: 80, height: 24, glyphs: .ascii)
        let updates = Self.chrony.map { Update(id: $0.package, title: $0.title, package: $0) }
        scenario.send(.jobQueued(JobDescriptor(
            id: 1, name: Self.chronyName, operation: .install, updates: updates, stopOnFailure: false, awaitsConfirmation: true,
            runByDriver: true)))
        let screen = scenario.screen()
        #expect(screen.contains("- remove    systemd-timesyncd"), "\(screen)")
        #expect(screen.contains("^ upgrade   perl-base 5.36.0-7"), "\(screen)")
        #expect(screen.contains("+ install   chrony 4.3-2+deb12u1"), "\(screen)")
    }
}
