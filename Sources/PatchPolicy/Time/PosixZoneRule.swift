import TextBasics

/// The rule a TZif file's footer gives for the times after its last transition, in POSIX's `TZ`
/// form (`CET-1CEST,M3.5.0,M10.5.0/3`): a standard offset and, for zones with daylight saving
/// time, its offset and the two yearly changes. Only the `Mm.w.d` form of a change is read,
/// the one every zone of the tz database uses; a footer in another form gives `nil`, and
/// `ZoneRules` then keeps the last transition's offset.
public struct PosixZoneRule: Sendable, Hashable {
    /// The standard time's offset east of UTC, in seconds (`CET-1` is +3600).
    public let standardOffset: Int
    public let standardName: String
    /// The daylight saving time, when the zone has one.
    public let daylight: Daylight?

    /// Daylight saving time: its offset and when it starts and ends each year.
    public struct Daylight: Sendable, Hashable {
        public let offset: Int
        public let name: String
        public let start: Change
        public let end: Change
    }

    /// A yearly change `Mm.w.d/time`: day `d` (0 Sunday) of week `w` (5 the last) of month `m`, at
    /// `time` seconds after local midnight of the time in force before the change (may be
    /// negative or past 24 h, as tz's version 3 allows).
    public struct Change: Sendable, Hashable {
        public let month: Int
        public let week: Int
        public let weekday: Int
        public let time: Int

        /// The change's local date in `year`.
        func date(in year: Int) -> CivilDate {
            let first = CivilDate(year: year, month: month, day: 1)!
            var day = 1 + (weekday - first.weekday.rawValue + 7) % 7 + (week - 1) * 7
            let last = CivilDate.days(inMonth: month, of: year)
            while day > last { day -= 7 }
            return CivilDate(year: year, month: month, day: day)!
        }
    }

    /// Reads `text`; `nil` when it is not a rule this reader understands (see the type's comment).
    public init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard let standardName = scanner.name(), let standardWest = scanner.offset() else { return nil }
        self.standardName = standardName
        standardOffset = -standardWest
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard let daylightName = scanner.name() else { return nil }
        var daylightWest = standardWest - 3600
        if !scanner.peek(","), let written = scanner.offset() { daylightWest = written }
        guard scanner.take(","), let start = scanner.change(), scanner.take(","), let end = scanner.change(), scanner.atEnd else { return nil }
        daylight = Daylight(offset: -daylightWest, name: daylightName, start: start, end: end)
    }

    /// The offset east of UTC at `seconds` (since 1970, UTC), and whether it is daylight time.
    public func offset(at seconds: Int) -> (offset: Int, isDaylight: Bool, name: String) {
        guard let daylight else { return (standardOffset, false, standardName) }
        let year = CivilDate(daysSince1970: Self.floorDivide(seconds + standardOffset, 86_400)).year
        // Each change is written in the local time in force before it.
        let start = daylight.start.date(in: year).daysSince1970 * 86_400 + daylight.start.time - standardOffset
        let end = daylight.end.date(in: year).daysSince1970 * 86_400 + daylight.end.time - daylight.offset
        let inDaylight = start < end ? (seconds >= start && seconds < end) : (seconds >= start || seconds < end)
        return inDaylight ? (daylight.offset, true, daylight.name) : (standardOffset, false, standardName)
    }

    static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// Reads the parts of a rule from its bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        func peek(_ character: Character) -> Bool { index < bytes.count && bytes[index] == character.asciiValue }

        mutating func take(_ character: Character) -> Bool {
            guard peek(character) else { return false }
            index += 1
            return true
        }

        /// `CET`, or `<+03>` for names that are not letters.
        mutating func name() -> String? {
            if take("<") {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
                guard index < bytes.count, index > start else { return nil }
                defer { index += 1 }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            let start = index
            while index < bytes.count, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[index] & 0xDF) { index += 1 }
            return index - start >= 3 ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, positive west of Greenwich as POSIX writes it.
        mutating func offset() -> Int? {
            var sign = 1
            if take("-") { sign = -1 } else { _ = take("+") }
            guard let hours = number() else { return nil }
            var total = hours * 3600
            if take(":") {
                guard let minutes = number() else { return nil }
                total += minutes * 60
                if take(":") {
                    guard let seconds = number() else { return nil }
                    total += seconds
                }
            }
            return sign * total
        }

        /// `Mm.w.d[/time]`.
        mutating func change() -> Change? {
            guard take("M"), let month = number(), take("."), let week = number(), take("."), let weekday = number(),
                  (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else { return nil }
            var time = 7200
            if take("/") {
                guard let written = offset() else { return nil }
                time = written
            }
            return Change(month: month, week: week, weekday: weekday, time: time)
        }

        mutating func number() -> Int? {
            let start = index
            var value = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), index - start < 3 {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > start ? value : nil
        }
    }
}
