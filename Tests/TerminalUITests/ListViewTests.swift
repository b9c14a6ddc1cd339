import Testing
import TerminalUI

@Suite("ListView: scrolling and visible rows")
struct ListViewTests {
    @Test(arguments: [
        // (count, selected, rows, previous, expected)
        (100, 0, 10, 0, 0),
        (100, 9, 10, 0, 0),
        (100, 10, 10, 0, 1),
        (100, 50, 10, 0, 41),
        (100, 45, 10, 41, 41),
        (100, 40, 10, 41, 40),
        (100, 99, 10, 0, 90),
        (100, 500, 10, 0, 90),
        (100, -3, 10, 20, 0),
        (5, 2, 10, 3, 0),
        (100, 95, 10, 95, 90),
        (0, 0, 10, 7, 0),
        (100, 5, 0, 3, 0),
    ])
    func offsetKeepsTheSelectionVisible(count: Int, selected: Int, rows: Int, previous: Int, expected: Int) {
        #expect(ListView.offset(itemCount: count, selected: selected, visibleRows: rows, previousOffset: previous) == expected)
    }

    @Test func withoutSelectionThePreviousOffsetIsKeptWithinBounds() {
        #expect(ListView.offset(itemCount: 100, selected: nil, visibleRows: 10, previousOffset: 30) == 30)
        #expect(ListView.offset(itemCount: 100, selected: nil, visibleRows: 10, previousOffset: 95) == 90)
    }

    @Test func rendersOnlyVisibleRowsAndHighlightsTheSelection() {
        var buffer = Buffer(width: 8, height: 4)
        var drawn: [Int] = []
        let list = ListView(itemCount: 10_000, selectedIndex: 5001, offset: 5000, selectionStyle: Style(reverse: true))
        let offset = list.render(into: &buffer, area: Rect(x: 0, y: 1, width: 8, height: 3)) { buffer, index, row, isSelected in
            drawn.append(index)
            buffer.write("\(isSelected ? ">" : " ")\(index)", x: row.x, y: row.y)
        }
        #expect(offset == 5000)
        #expect(drawn == [5000, 5001, 5002])
        #expect(buffer.lines == ["        ", " 5000   ", ">5001   ", " 5002   "])
        #expect(buffer.styleMap([.plain: ".", Style(reverse: true): "r"]) == ["........", "........", "rrrrrrrr", "........"])
    }

    @Test func emptyListDrawsNothing() {
        var buffer = Buffer(width: 4, height: 2)
        var calls = 0
        ListView(itemCount: 0, selectedIndex: nil).render(into: &buffer, area: buffer.area) { _, _, _, _ in calls += 1 }
        #expect(calls == 0)
    }
}
