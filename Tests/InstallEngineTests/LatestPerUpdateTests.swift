import InstallEngine
import Testing

@Suite("LatestPerUpdate: the newest value per update, flushed in update order")
struct LatestPerUpdateTests {
    @Test("a newer value replaces the one of the same update and returns it")
    func keepReplaces() {
        var latest = LatestPerUpdate<Double>()
        #expect(latest.keep(10, for: UpdateKey(job: 1, index: 0)) == nil)
        #expect(latest.keep(20, for: UpdateKey(job: 1, index: 0)) == 10)
        #expect(latest[UpdateKey(job: 1, index: 0)] == 20)
        #expect(latest.take(UpdateKey(job: 1, index: 0)) == 20)
        #expect(latest.isEmpty)
    }

    @Test("values come back by job, then position, whatever order they arrived in")
    func updateOrder() {
        var latest = LatestPerUpdate<String>()
        latest.keep("2.0", for: UpdateKey(job: 2, index: 0))
        latest.keep("1.3", for: UpdateKey(job: 1, index: 3))
        latest.keep("1.1", for: UpdateKey(job: 1, index: 1))
        #expect(latest.keys == [UpdateKey(job: 1, index: 1), UpdateKey(job: 1, index: 3), UpdateKey(job: 2, index: 0)])
        let due = latest.take { key, _ in key.job == 1 }
        #expect(due.map(\.value) == ["1.1", "1.3"])
        #expect(latest.keys == [UpdateKey(job: 2, index: 0)], "what was not due stays")
        #expect(latest.take { _, _ in true }.map(\.value) == ["2.0"])
        #expect(latest.isEmpty)
    }
}
