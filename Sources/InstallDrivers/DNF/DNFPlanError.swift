/// Why a dnf job cannot run: said before anything has changed, in dnf's own words where it
/// gave some (`No match for argument: nosuch`). The command line exits 2 with it.
public struct DNFPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The helper's kind of refusal: `unknown`, `depsolve`, `check`, `locked`, `root`,
    /// `permission`, `repo`, `changed`, `download`, `signature`, `other`; `missing` when dnf's
    /// Python API cannot be run.
    public var kind: String
    /// What to tell the operator, one or more lines.
    public var message: String

    public var description: String { message }
}
