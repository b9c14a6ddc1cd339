import Foundation
import GRDB
@testable import InstallHistory
import Testing

@Suite("History dates are written as GRDB writes them")
struct HistoryDateTextTests {
    @Test(arguments: [
        0, 1, 0.0005, 0.999, 0.9995, 0.9999999, 59.9999, 86_399.9999, 951_782_400.5, // 2000-02-29
        1_700_000_000.123, 1_700_000_000.1234, 1_700_000_000.9999, 1_767_225_599.999, // 2025-12-31
        4_102_444_800, 253_402_300_799.999, // 2100-01-01, 9999-12-31
    ])
    func knownDates(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(HistoryDateText.text(date) == String.fromDatabaseValue(date.databaseValue))
    }

    @Test func manyDatesAroundNow() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 1_600_000_000...2_000_000_000, using: &generator))
            #expect(HistoryDateText.text(date) == String.fromDatabaseValue(date.databaseValue), "\(date.timeIntervalSince1970)")
        }
    }
}
