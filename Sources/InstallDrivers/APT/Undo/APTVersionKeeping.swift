import InstallEngine

/// Keeps the versions an apt job replaces, for undo (Documentation/UNDO.md), and records them:
/// installtop's history does (its undo folder, its run). An apt transaction asks it once, from
/// its `Pre-Install-Pkgs` hook, after apt's downloads and before dpkg's first run; dpkg waits
/// for it (`APTHookTransaction`). When the job's plan is known before apt starts (a simulated
/// plan), the transaction first lets it start keeping ahead (`APTKeepingAhead`).
public protocol APTVersionKeeping: Sendable {
    /// Keeps the replaced version of each of `changes` that has one
    /// (`APTVersionKeeper.replacesInstalledVersion`) and records the outcome; one result per
    /// such package. Must return (a package that cannot be kept is a `.notKept` result, never a
    /// reason to stop the transaction).
    func keep(_ changes: [PackageChange], environment: APTEnvironment) -> [APTKeptVersion]

    /// Starts keeping what `planned` (the simulated plan) replaces, as apt starts, and returns
    /// at once; `keep` then waits for it and keeps only what apt's own plan adds. By default
    /// nothing starts ahead.
    func keepAhead(_ planned: [PackageChange], environment: APTEnvironment)

    /// apt ended or was stopped before its hook asked `keep`: what was kept ahead is deleted.
    func discardAhead()

    /// The history run the job records under, when one is reserved already (its apt-get's mark
    /// names it, `InstalltopRunMarker`); `nil` otherwise. By default none.
    var reservedRun: Int64? { get }

    /// apt's plan came (its hook, before dpkg runs), whether or not anything is to be kept: the
    /// run is to record it with `environment`'s dpkg, so that it can be settled from there if
    /// the engine dies. Must not wait (it runs while apt waits). By default nothing.
    func planned(_ changes: [PackageChange], environment: APTEnvironment)

    /// Whether the job is commit-confirmed (Documentation/COMMIT-CONFIRMED.md): `keep` is then
    /// asked before dpkg runs even when nothing of the plan replaces an installed version (the
    /// keeper takes the host's health there), and a version it could not keep stops the
    /// transaction before dpkg changes anything, since the revert would need it. By default false.
    var isArmed: Bool { get }
}

extension APTVersionKeeping {
    public func keepAhead(_ planned: [PackageChange], environment: APTEnvironment) {}
    public func discardAhead() {}
    public var reservedRun: Int64? { nil }
    public func planned(_ changes: [PackageChange], environment: APTEnvironment) {}
    public var isArmed: Bool { false }
}
