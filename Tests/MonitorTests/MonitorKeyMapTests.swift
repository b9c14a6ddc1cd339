import Testing
import TerminalUI

@testable import Monitor

/// One key map feeds dispatch, the help and the footer.
@Suite("Monitor key map")
struct MonitorKeyMapTests {
    @Test("no key is bound twice, and every key the help names is bound")
    func bindingsAreUnique() {
        for attached in [false, true] {
            let keys = MonitorKeyMap.bindings(attached: attached).flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "a key bound twice (attached: \(attached))")
            #expect(MonitorKeyMap.binding(for: .character("q"), attached: attached)?.action == (attached ? .detach : .quit))
        }
        #expect(MonitorKeyMap.binding(for: .character("x"), attached: false) == nil)
    }

    @Test("the footer lists the hints in the map's order, the optional ones only when they fit")
    func footer() {
        let wide = MonitorKeyMap.footer(attached: false, upDown: "↑↓", width: 100)
        #expect(wide == " ↑↓ select  Tab pane  a abort  c clean up  / filter  t theme  h history  ? help  q quit")
        let narrow = MonitorKeyMap.footer(attached: false, upDown: "↑↓", width: 80)
        #expect(narrow == " ↑↓ select  Tab pane  a abort  c clean up  / filter  t theme  ? help  q quit")
        #expect(MonitorKeyMap.footer(attached: true, upDown: "Up/Dn", width: 100).hasSuffix("? help  d detach"))
    }

    @Test("the help is the map's bindings that name their keys")
    func helpComesFromTheMap() {
        let named = MonitorKeyMap.bindings(attached: false).filter { $0.helpKeys != nil }
        #expect(MonitorState.keyHelp.map(\.keys) == named.compactMap(\.helpKeys))
        #expect(!MonitorState.keyHelp.contains { $0.action == "clear the filter" }, "Esc is not listed")
    }
}
