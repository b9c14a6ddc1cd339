import InstallEngine

/// One package a job run changed, as its history row says (`installtop history --jobs`).
public struct JobRunPackage: Sendable, Hashable {
    public var name: String
    public var action: PackageChange.Action
    public var oldVersion: String?
    public var newVersion: String?
    /// The package's update result.
    public var resultCode: OperationResultCode

    public init(name: String, action: PackageChange.Action, oldVersion: String?, newVersion: String?, resultCode: OperationResultCode) {
        self.name = name
        self.action = action
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.resultCode = resultCode
    }

    /// Whether dpkg changed the package: its update succeeded (with errors or not).
    public var changedThePackage: Bool { resultCode == .succeeded || resultCode == .succeededWithErrors }

    /// Whether dpkg changed which version is installed (or whether one is): a change an undo
    /// puts back. A reinstall (`installtop apt repair`) puts the same version's files back, and
    /// stands in no earlier run's way.
    public var changedTheVersion: Bool { changedThePackage && action != .reinstall }
}
