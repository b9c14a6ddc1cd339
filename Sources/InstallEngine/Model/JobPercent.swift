/// A progress figure of an update or a job, always within 0…100, that only moves up (rule 6).
///
/// The one owner of the never-lower rule: the engine keeps each update's and the job's figure
/// as one, and whoever must keep a figure of its own (a driver's per-package phase, a consumer
/// that gets several updates' progress out of order) keeps it as one too, instead of its own
/// `max`. A value: raising it returns the higher figure, so a caller can see whether it rose.
public struct JobPercent: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The figure, 0…100 and never NaN.
    public let value: Double

    /// Nothing done yet.
    public static let zero = JobPercent(checked: 0)
    /// Done.
    public static let complete = JobPercent(checked: 100)

    /// `figure` brought into 0…100: below 0 (and −∞) is 0, above 100 (and +∞) is 100. NaN,
    /// which says nothing of how far anything got, is 0.
    public init(clamping figure: Double) {
        value = figure.isNaN ? 0 : min(100, max(0, figure))
    }

    private init(checked value: Double) {
        self.value = value
    }

    /// The higher of this figure and `figure` brought into 0…100 (`init(clamping:)`): a lower
    /// figure changes nothing, one above 100 gives 100. A NaN figure changes nothing either: it
    /// is no figure at all, not a fall to 0.
    public func advanced(to figure: Double) -> JobPercent {
        figure.isNaN ? self : max(self, JobPercent(clamping: figure))
    }

    /// The higher of this figure and `other`.
    public func advanced(to other: JobPercent) -> JobPercent {
        max(self, other)
    }

    /// Raises this figure to `figure` as `advanced(to:)` does; returns whether it rose.
    @discardableResult
    public mutating func advance(to figure: Double) -> Bool {
        let raised = advanced(to: figure)
        guard raised > self else { return false }
        self = raised
        return true
    }

    public static func < (lhs: JobPercent, rhs: JobPercent) -> Bool {
        lhs.value < rhs.value
    }

    /// `41.5%`: the figure as it is, for messages and test failures.
    public var description: String { "\(value)%" }
}
