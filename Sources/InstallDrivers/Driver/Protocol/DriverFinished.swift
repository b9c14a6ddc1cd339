import InstallEngine

/// `{"type":"finished","job":"web1","update":"t3","result":"failed","reason":"…","changed":false}`
public struct DriverFinished: Sendable, Hashable {
    public var reference: DriverUpdateReference
    public var result: DriverResult
    /// Why, in the driver's words (apt's `pmerror` text, a module's message, a skip reason).
    public var reason: String?
    /// Ansible's `changed`; `nil` when the driver has no such notion.
    public var changed: Bool?
    /// What the result means beyond its word (`rescued`, `ignored`, `ranElsewhere`, `unknown`,
    /// `skipped`); `nil` when there is none or the word is one this version does not know.
    public var mark: UpdateResultMark?
    /// It ran as a dry run (Ansible's check mode): nothing was changed, and `changed` says
    /// what a real run would have changed. `false` when the driver does not say.
    public var check: Bool
    /// The system it ran on when not the job's own (Ansible's `delegate_to`); `nil` when it ran
    /// on the job's own.
    public var ranOn: String?

    public init(
        reference: DriverUpdateReference, result: DriverResult, reason: String? = nil, changed: Bool? = nil, mark: UpdateResultMark? = nil,
        check: Bool = false, ranOn: String? = nil
    ) {
        self.reference = reference
        self.result = result
        self.reason = reason
        self.changed = changed
        self.mark = mark
        self.check = check
        self.ranOn = ranOn
    }
}
