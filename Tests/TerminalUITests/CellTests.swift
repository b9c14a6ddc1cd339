import Testing
import TerminalUI

@Suite("Cell: inline graphemes")
struct CellTests {
    @Test(arguments: ["a", "漢", "e\u{301}", "🚀", "👨\u{200D}👩\u{200D}👧", "🇩🇪", "#\u{FE0F}\u{20E3}"] as [Character])
    func graphemesRoundTrip(character: Character) {
        let cell = Cell(character: character, style: .plain, width: 1)
        #expect(cell.character == character)
        #expect(cell.scalarCount == character.unicodeScalars.count)
        #expect(cell.scalar(at: 0) == character.unicodeScalars.first)
    }

    @Test func longGraphemesKeepTheirFirstSixScalars() {
        let zalgo: Character = "a\u{300}\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}"
        let cell = Cell(character: zalgo, style: .plain, width: 1)
        #expect(cell.scalarCount == Cell.maxScalars)
        #expect(cell.character == "a\u{300}\u{301}\u{302}\u{303}\u{304}")
    }

    @Test func asciiValueIsTheFastPath() {
        #expect(Cell(character: "x", style: .plain, width: 1).asciiValue == 0x78)
        #expect(Cell(character: "é", style: .plain, width: 1).asciiValue == nil)
        #expect(Cell.blank.asciiValue == 0x20)
        #expect(Cell.continuation(style: .plain).isContinuation)
    }
}
