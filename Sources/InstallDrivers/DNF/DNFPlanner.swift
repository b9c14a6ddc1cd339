#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics

/// Asks dnf what a dnf job will do, before anything runs (Documentation/DNF-JOBS.md): the
/// helper resolves the request with dnf's own API in the job's root and lists the transaction;
/// nothing is fetched and nothing changes.
public enum DNFPlanner {
    /// The plan of `job`, in rpm's order.
    /// - Throws: `DNFPlanError`: dnf's Python API missing, the root missing, dnf's lock held,
    ///   or dnf's refusal (no such package, a dependency problem, a repository it cannot read)
    ///   in dnf's own words.
    public static func plan(_ job: DNFJob, helper: DNFHelper) throws(DNFPlanError) -> DNFPlan {
        try checkRoot(of: job)
        let result = SystemCommand.run(helper.arguments(.plan, job: job), environment: helper.environment)
        if result.failedToStart {
            throw DNFPlanError(kind: "missing", message: "dnf's Python API cannot be run here (\(result.stderr))")
        }
        var reading = DNFPlanReading(job: job)
        var plan: DNFPlan?
        for line in result.stdout.split(separator: "\n") where plan == nil && reading.refusal == nil {
            plan = reading.read(String(line))
        }
        if let refusal = reading.refusal { throw refusal }
        guard result.status == 0, let plan else {
            throw DNFPlanError(kind: "other", message: Self.failure(result))
        }
        return plan
    }

    /// Refuses a root dnf must not act on, before the helper runs: an installroot that is not a
    /// folder, or none on a system whose packages are dpkg's (`DNFSystem`). Every way a dnf job
    /// starts asks this first.
    public static func checkRoot(of job: DNFJob) throws(DNFPlanError) {
        if let root = job.installRoot {
            guard FileKind.of(root) == .folder else {
                throw DNFPlanError(kind: "root", message: "the installroot \(root) is not a folder")
            }
        } else if let refusal = DNFSystem.refusalWithoutRoot() {
            throw DNFPlanError(kind: "root", message: refusal)
        }
    }

    /// What to do about a refusal of `kind`, on a line of its own after dnf's words, as apt's
    /// refusals say it.
    public static func hint(_ kind: String) -> String {
        switch kind {
        case "locked": return "\n   another dnf or rpm is running on this root: wait for it to finish, then try again"
        case "permission": return "\n   changing packages needs root: run installtop as root (sudo)"
        default: return ""
        }
    }

    /// What a helper that ended without its answer said: its last lines of stderr (a Python
    /// without dnf says `ModuleNotFoundError: No module named 'dnf'`), or its exit status.
    static func failure(_ result: SystemCommand) -> String {
        let lines = result.stderr.split(separator: "\n").suffix(3).joined(separator: "\n")
        if lines.contains("No module named 'dnf'") {
            return "dnf's Python API is not installed here (the dnf package provides it): \(lines)"
        }
        return lines.isEmpty ? "the dnf helper exited with status \(result.status)" : lines
    }
}
