import InstallEngine
import Testing

@testable import InstallDrivers

/// Verdicts held until dpkg's output has moved past their package, and configurations waiting
/// for apt's retry: released in apt's order, the rest kept.
@Suite("apt: verdicts held back")
struct APTHeldVerdictsTests {
    @Test("Released where dpkg's output has passed, in the order apt gave them; the others stay held")
    func release() {
        var verdicts = APTHeldVerdicts()
        verdicts.hold(.succeeded, of: 2)
        verdicts.hold(.failed("boom"), of: 0)
        verdicts.hold(.succeeded, of: 1)
        let released = verdicts.release { $0 != 1 }
        #expect(released.map(\.index) == [2, 0])
        #expect(released.map(\.verdict) == [.succeeded, .failed("boom")])
        #expect(verdicts.held.map(\.index) == [1])
        #expect(verdicts.release { _ in false }.isEmpty)
    }

    @Test("The last verdict held is taken alone; apt's end takes every one left, and every retry, once")
    func taking() {
        var verdicts = APTHeldVerdicts()
        verdicts.hold(.succeeded, of: 0)
        verdicts.hold(.succeeded, of: 1)
        verdicts.awaitRetry(of: 2, reason: "configuration failed")
        #expect(verdicts.last?.index == 1)
        #expect(verdicts.takeLast()?.index == 1)
        #expect(verdicts.takeAll().map(\.index) == [0])
        #expect(verdicts.takeAll().isEmpty && verdicts.takeLast() == nil)
        #expect(verdicts.takeAwaitingRetry().map(\.reason) == ["configuration failed"])
        #expect(verdicts.takeAwaitingRetry().isEmpty)
    }

    @Test("The first held and the first awaiting apt's retry are what dpkg's output may still be about")
    func firstUnsettled() {
        var verdicts = APTHeldVerdicts()
        #expect(verdicts.firstUnsettled.isEmpty)
        verdicts.awaitRetry(of: 3, reason: "x")
        verdicts.hold(.succeeded, of: 1)
        verdicts.hold(.succeeded, of: 0)
        #expect(verdicts.firstUnsettled == [1, 3])
    }
}
