import EngineWire
import Foundation
import Glibc
import InstallDrivers
import InstallEngine
import Testing

/// The relay counts the lines it could not deliver and says so (`dropped`) in its next message
/// that gets through; the observed job counts them with its result, where `status` and the
/// monitor show what a job ignored.
@Suite("Observed transactions: the relay's dropped lines")
struct ObservedDroppedLinesTests {
    @Test("dropped counts, one of them sent before the job existed, add up on the observed job's result")
    func droppedLinesAreCountedOnTheJob() async throws {
        let transaction = try ObservedTestTransaction(name: "observed-dropped")
        let (initiator, queue, observed) = (transaction.initiator, transaction.queue, transaction.observed)

        // No job yet after `begin`: its 2 are kept for the job dpkg's lines make.
        observed.receive(ObservedReport(event: .begin, initiator: initiator, dropped: 2, lines: []))
        observed.receive(ObservedReport(event: .status, initiator: initiator, dropped: 3, lines: [
            "processing: install: lab-a", "status: lab-a: half-installed", "status: lab-a: unpacked",
        ]))
        observed.receive(ObservedReport(event: .status, initiator: initiator, lines: ["status: lab-a: installed"]))
        observed.receive(ObservedReport(event: .end, initiator: initiator, dropped: 1, lines: []))
        await queue.waitUntilIdle()

        let jobs = queue.snapshot().jobs
        #expect(jobs.count == 1)
        let result = try #require(jobs.first?.result)
        #expect(result.droppedLines == 6)
        #expect(result.ignoredLinesText == "6 lines dropped")
    }

    @Test("a job nothing was dropped from says nothing of it")
    func nothingDropped() async throws {
        let transaction = try ObservedTestTransaction(name: "observed-dropped")
        let (initiator, queue, observed) = (transaction.initiator, transaction.queue, transaction.observed)

        observed.receive(ObservedReport(event: .status, initiator: initiator, lines: ["processing: install: lab-a"]))
        observed.receive(ObservedReport(event: .end, initiator: initiator, lines: []))
        await queue.waitUntilIdle()

        let result = try #require(queue.snapshot().jobs.first?.result)
        #expect(result.droppedLines == 0)
        #expect(result.ignoredLinesText == nil)
    }
}
