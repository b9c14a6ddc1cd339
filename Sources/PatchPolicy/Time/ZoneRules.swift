/// An IANA time zone's offsets from UTC over time: the transitions of its TZif file and the
/// POSIX rule of its footer for the times after them. Foundation's `TimeZone` would do this
/// only through FoundationInternationalization, whose ICU data the binary must not link
/// (Documentation/ARCHITECTURE.md, "What the binary links"), and C's `localtime` only for the
/// process's one `TZ`.
public struct ZoneRules: Sendable, Hashable {
    /// The zone's name as the policy writes it (`Europe/Berlin`).
    public let name: String
    /// Each transition's instant (seconds since 1970, UTC) and the offset east of UTC from then
    /// on, ascending.
    let transitions: [Transition]
    /// The offset before the first transition.
    let initial: Offset
    /// The rule after the last transition; `nil` keeps the last transition's offset.
    let footer: PosixZoneRule?

    /// An offset east of UTC in seconds, and its abbreviation (`CEST`).
    public struct Offset: Sendable, Hashable {
        public let seconds: Int
        public let abbreviation: String
    }

    struct Transition: Sendable, Hashable {
        let at: Int
        let offset: Offset
    }

    init(name: String, transitions: [Transition], initial: Offset, footer: PosixZoneRule?) {
        self.name = name
        self.transitions = transitions
        self.initial = initial
        self.footer = footer
    }

    /// A zone that follows `rule` at all times: for tests, which must not depend on the tz
    /// database the machine has.
    public init(name: String, rule: PosixZoneRule) {
        self.init(name: name, transitions: [], initial: Offset(seconds: rule.standardOffset, abbreviation: rule.standardName), footer: rule)
    }

    // MARK: - Offsets

    /// The offset in force at `seconds` (since 1970, UTC).
    public func offset(at seconds: Int) -> Offset {
        if transitions.isEmpty || seconds >= transitions[transitions.count - 1].at {
            if let footer {
                let ruled = footer.offset(at: seconds)
                return Offset(seconds: ruled.offset, abbreviation: ruled.name)
            }
            return transitions.last?.offset ?? initial
        }
        guard seconds >= transitions[0].at else { return initial }
        // The last transition at or before `seconds`.
        var low = 0, high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle].at <= seconds { low = middle } else { high = middle - 1 }
        }
        return transitions[low].offset
    }

    /// The instant (seconds since 1970, UTC) of the local wall-clock time `local` (seconds since
    /// 1970 as if the zone were UTC). A time that occurs twice (clocks set back) is its first
    /// occurrence; a time that does not occur (clocks set forward) is moved forward by the gap,
    /// as C's `mktime` does: 02:30 on the night clocks jump from 02:00 to 03:00 is 03:30.
    public func instant(ofLocal local: Int) -> Int {
        // Any change near `local` is within a day of it: the candidates are the offsets in force
        // a day either side.
        let candidates = Set([offset(at: local - 86_400).seconds, offset(at: local).seconds, offset(at: local + 86_400).seconds])
        let fitting = candidates.filter { offset(at: local - $0).seconds == $0 }
        if let largest = fitting.max() { return local - largest }
        return local - offset(at: local - candidates.max()!).seconds
    }

    /// `local` seconds for `instant`: the wall clock's time as if the zone were UTC.
    public func local(ofInstant instant: Int) -> Int { instant + offset(at: instant).seconds }
}
