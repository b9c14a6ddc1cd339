import Testing
import TerminalUI

@Suite("Rect: insets and splits")
struct LayoutTests {
    private let area = Rect(x: 2, y: 1, width: 20, height: 10)

    @Test func insetShrinksAndNeverGoesNegative() {
        #expect(area.inset(by: 1) == Rect(x: 3, y: 2, width: 18, height: 8))
        #expect(area.inset(top: 1, left: 2) == Rect(x: 4, y: 2, width: 18, height: 9))
        #expect(area.inset(by: 6).isEmpty)
        #expect(area.inset(by: 6).height == 0)
    }

    @Test func splitRowsWithFixedAndRest() {
        let parts = area.splitRows([.fixed(1), .rest, .fixed(2)])
        #expect(parts == [
            Rect(x: 2, y: 1, width: 20, height: 1),
            Rect(x: 2, y: 2, width: 20, height: 7),
            Rect(x: 2, y: 9, width: 20, height: 2),
        ])
    }

    @Test func splitColumnsWithFractionsAndSharedRest() {
        let parts = area.splitColumns([.fraction(0.25), .rest, .rest])
        #expect(parts.map(\.width) == [5, 8, 7])
        #expect(parts.map(\.x) == [2, 7, 15])
    }

    @Test func oversizedRequestsShrinkLaterParts() {
        let parts = area.splitRows([.fixed(8), .fixed(8), .rest])
        #expect(parts.map(\.height) == [8, 2, 0])
        #expect(parts[2].y == 11)
    }

    @Test func intersectionAndRows() {
        #expect(area.intersection(Rect(x: 0, y: 0, width: 5, height: 5)) == Rect(x: 2, y: 1, width: 3, height: 4))
        #expect(area.intersection(Rect(x: 50, y: 0, width: 5, height: 5)).isEmpty)
        #expect(area.row(3) == Rect(x: 2, y: 4, width: 20, height: 1))
        #expect(area.row(10).isEmpty)
    }
}
