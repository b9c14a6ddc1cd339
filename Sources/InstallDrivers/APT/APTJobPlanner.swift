import InstallEngine

/// The `PackageJobPlanner` of apt: `APTPlanner`'s plan, run by an `APTDriver`.
public struct APTJobPlanner: PackageJobPlanner {
    public init() {}

    public func plan(_ job: PackageJob) throws -> PlannedPackageJob {
        let plan = try APTPlanner.plan(job)
        return PlannedPackageJob(updates: plan.updates, driver: APTDriver(plan: plan), summary: plan.summary)
    }
}
