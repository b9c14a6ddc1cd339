import Testing
import TextBasics

/// `NaturalOrder` sorts names with numbers as people do, as `localizedStandardCompare` did.
@Suite("NaturalOrder: web2 before web10")
struct NaturalOrderTests {
    @Test("numbers compare by value, letters without case, and the order is total")
    func order() {
        let names = ["web10", "Web1", "db", "web2", "web01", "app-3", "app-12", "web1", "DB2", "db10"]
        let sorted = names.sorted(by: NaturalOrder.areInIncreasingOrder)
        #expect(sorted == ["app-3", "app-12", "db", "DB2", "db10", "Web1", "web01", "web1", "web2", "web10"])
        for a in names {
            #expect(!NaturalOrder.areInIncreasingOrder(a, a))
            for b in names where a != b {
                #expect(NaturalOrder.areInIncreasingOrder(a, b) != NaturalOrder.areInIncreasingOrder(b, a), "\(a) \(b)")
            }
        }
    }
}
