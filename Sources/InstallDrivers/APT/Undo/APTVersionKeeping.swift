import InstallEngine

/// Keeps the versions an apt job replaces, for undo (PRODUCT.md "Undo"), and records them:
/// installtop's history does (its undo folder, its run). An apt transaction asks it once, from
/// its `Pre-Install-Pkgs` hook, after apt's downloads and before dpkg's first run; dpkg waits
/// for it (`APTHookTransaction`).
public protocol APTVersionKeeping: Sendable {
    /// Keeps the replaced version of each of `changes` that has one
    /// (`APTVersionKeeper.replacesInstalledVersion`) and records the outcome; one result per
    /// such package. Must return (a package that cannot be kept is a `.notKept` result, never a
    /// reason to stop the transaction).
    func keep(_ changes: [PackageChange], environment: APTEnvironment) -> [APTKeptVersion]
}
