import InstallEngine
import TerminalUI

/// The characters the monitor draws with: box and bar glyphs plus status marks, in a Unicode
/// and an ASCII version (for locales that are not UTF-8). Every mark is one column wide, so
/// both versions lay out the same.
public struct MonitorGlyphs: Sendable, Hashable {
    /// Boxes, bars and the ellipsis.
    public var box: GlyphSet
    /// How child text is made safe to show.
    public var sanitizer: TextSanitizer
    public var succeeded: Character
    public var succeededWithErrors: Character
    public var failed: Character
    public var aborted: Character
    public var running: Character
    public var queued: Character
    /// A step its driver skipped (it counts as succeeded).
    public var skipped: Character
    /// What an apt plan does to a package, in the start question: install, upgrade (or
    /// downgrade), reinstall, remove or purge.
    public var install: Character
    public var upgrade: Character
    /// An undo's version going back (`PlanDialog` of a job that undoes a run).
    public var downgrade: Character
    public var reinstall: Character
    public var remove: Character
    /// A failure a rescue section took over (Ansible's `rescued`; it counts as succeeded).
    public var rescued: Character
    /// A failure the play ignores (Ansible's `ignored`; it counts as succeeded).
    public var ignored: Character
    /// A failure a later step took back (Ansible's `meta: clear_host_errors`; it counts as
    /// succeeded).
    public var cleared: Character
    /// A step that ran once for several jobs, on another one (Ansible's `run_once`).
    public var ranElsewhere: Character
    /// A step the driver went past without saying what happened.
    public var unknown: Character
    /// A step the driver never came to (aborted, not started, by no one's abort).
    public var notReached: Character
    /// Between header items.
    public var separator: String
    /// Before "reboot required".
    public var reboot: String
    /// The selection keys in the footer.
    public var upDown: String

    /// `✔ ! ✖ ⊘ ▶ · ↷ ↺ ≈ ↶ ↪ ? ∅`, `+ ↑ ↓ ↻ −` for packages, box drawing, eighth blocks, `⟳`.
    public static let unicode = MonitorGlyphs(
        box: .unicode, sanitizer: TextSanitizer(mode: .unicode),
        succeeded: "✔", succeededWithErrors: "!", failed: "✖", aborted: "⊘", running: "▶", queued: "·", skipped: "↷",
        install: "+", upgrade: "↑", downgrade: "↓", reinstall: "↻", remove: "−",
        rescued: "↺", ignored: "≈", cleared: "↶", ranElsewhere: "↪", unknown: "?", notReached: "∅",
        separator: " · ", reboot: "⟳", upDown: "↑↓")

    /// `+ ! x / > . ~ & = % ^ ? _`, `+ ^ v = -` for packages, `+-|` boxes, `#`/`-` bars.
    public static let ascii = MonitorGlyphs(
        box: .ascii, sanitizer: TextSanitizer(mode: .ascii),
        succeeded: "+", succeededWithErrors: "!", failed: "x", aborted: "/", running: ">", queued: ".", skipped: "~",
        install: "+", upgrade: "^", downgrade: "v", reinstall: "=", remove: "-",
        rescued: "&", ignored: "=", cleared: "%", ranElsewhere: "^", unknown: "?", notReached: "_",
        separator: " | ", reboot: "(!)", upDown: "Up/Dn")

    /// The glyph of a result's mark.
    public func mark(for mark: UpdateResultMark) -> Character {
        switch mark {
        case .skipped: return skipped
        case .rescued: return rescued
        case .ignored: return ignored
        case .cleared: return cleared
        case .ranElsewhere: return ranElsewhere
        case .unknown: return unknown
        case .notReached: return notReached
        }
    }

    /// The glyph of a result: its mark's when it has one, else its code's.
    public func mark(for result: UpdateInstallationResult) -> Character {
        result.mark.map { mark(for: $0) } ?? mark(for: result.resultCode)
    }

    /// The mark of a result code (running for `inProgress`, queued for `notStarted`).
    public func mark(for code: OperationResultCode) -> Character {
        switch code {
        case .notStarted: return queued
        case .inProgress: return running
        case .succeeded: return succeeded
        case .succeededWithErrors: return succeededWithErrors
        case .failed: return failed
        case .aborted: return aborted
        }
    }

    /// The mark of what an apt plan does to a package.
    public func mark(for action: PackageChange.Action) -> Character {
        switch action {
        case .install: return install
        case .upgrade: return upgrade
        case .reinstall: return reinstall
        case .remove, .purge: return remove
        }
    }
}
