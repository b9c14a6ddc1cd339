import InstallEngine
import YAMLNodes

/// Loads a patch-night policy (Documentation/POLICY.md) and the inventory it names.
///
/// Every problem is collected, not just the first, each as `FILE:LINE:COLUMN: message` with the
/// manifests' types and wording (`ManifestErrors`); a YAML syntax error stops reading there, so
/// it comes alone.
public enum PolicyLoader {
    /// Reads and checks the policy at `path`. A file that cannot be read gives one error about
    /// the whole file, with no position. `zones` gives a zone's rules by name (the system's
    /// zoneinfo unless a test gives its own).
    public static func load(contentsOfFile path: String,
                            zones: @escaping (String) -> ZoneRules? = { ZoneInfoFile.rules(named: $0) }) throws(ManifestErrors) -> PatchPolicy {
        let yaml = try ManifestSourceFile.text(ofFile: path, noun: "policy")
        return try load(yaml: yaml, path: path, zones: zones)
    }

    /// Checks the policy text `yaml` as if it were the file at `path`, whose folder is the base
    /// of a relative inventory path.
    public static func load(yaml: String, path: String,
                            zones: @escaping (String) -> ZoneRules? = { ZoneInfoFile.rules(named: $0) }) throws(ManifestErrors) -> PatchPolicy {
        // As manifests are: aliases and merge keys (`<<`) within the same limits.
        let root = try ManifestLimits.compose(yaml: yaml, path: path, noun: "policy")
        var reader = PolicyReader(file: path, zones: zones)
        let policy = reader.read(root)
        guard reader.errors.isEmpty, let policy else { throw ManifestErrors(reader.errors) }
        return policy
    }
}
