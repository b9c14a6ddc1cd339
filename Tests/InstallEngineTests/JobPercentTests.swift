import InstallEngine
import Testing

/// The value that owns rule 6's never-lower figure: what it keeps at the edges.
@Suite("JobPercent: a figure within 0…100 that never goes down")
struct JobPercentTests {
    /// Figures and what clamping makes of them.
    static let clampedFigures: [(Double, Double)] = [
        (0, 0), (41.5, 41.5), (100, 100), (-0.5, 0), (-1e300, 0), (100.01, 100), (1e300, 100),
        (-.infinity, 0), (.infinity, 100), (.nan, 0),
    ]

    @Test("Clamping keeps 0…100 as it is and brings the rest to the nearer bound; NaN is 0", arguments: clampedFigures)
    func clamping(figure: Double, expected: Double) {
        #expect(JobPercent(clamping: figure).value == expected)
    }

    @Test("Advancing keeps the higher figure: a lower one changes nothing, a higher one is taken")
    func advancing() {
        let forty = JobPercent(clamping: 40)
        #expect(forty.advanced(to: 30) == forty)
        #expect(forty.advanced(to: 40) == forty)
        #expect(forty.advanced(to: 40.5).value == 40.5)
        #expect(forty.advanced(to: -10) == forty)
        #expect(forty.advanced(to: JobPercent(clamping: 70)).value == 70)
        #expect(forty.advanced(to: JobPercent.zero) == forty)
    }

    @Test("Advancing past 100 stops at 100; NaN is no figure and changes nothing, not even from 0")
    func advancingAtTheEdges() {
        #expect(JobPercent(clamping: 90).advanced(to: 250) == .complete)
        #expect(JobPercent(clamping: 90).advanced(to: .infinity) == .complete)
        #expect(JobPercent.complete.advanced(to: 0) == .complete)
        #expect(JobPercent(clamping: 25).advanced(to: .nan).value == 25)
        #expect(JobPercent.zero.advanced(to: .nan) == .zero)
        #expect(JobPercent.zero.advanced(to: -.infinity) == .zero)
    }

    @Test("advance(to:) says whether the figure rose")
    func advanceSaysWhetherItRose() {
        var percent = JobPercent.zero
        let figures: [Double] = [10, 10, 5, .nan, 120, 130]
        let rises = figures.map { percent.advance(to: $0) }
        #expect(rises == [true, false, false, false, true, false], "the same figure, a lower one, NaN and past 100 once at 100 are no rise")
        #expect(percent == .complete)
    }

    @Test("Figures order by their value")
    func ordering() {
        #expect(JobPercent.zero < JobPercent(clamping: 0.1))
        #expect(JobPercent(clamping: 99.9) < .complete)
        #expect(JobPercent(clamping: 50) == JobPercent(clamping: 50))
        #expect(JobPercent(clamping: 150) == JobPercent(clamping: 100))
    }
}
