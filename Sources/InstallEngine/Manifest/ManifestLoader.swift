import YAMLNodes

/// Loads a manifest (Documentation/MANIFEST.md) into jobs of complete `Update`s.
///
/// Every problem is collected, not just the first: the thrown `ManifestErrors` lists them all,
/// each with file, line, column and what was expected. A YAML syntax error stops reading at
/// that point, so it comes alone.
public enum ManifestLoader {
    // MARK: - Loading

    /// Reads and checks the manifest at `path` (relative paths start at the current folder).
    /// An unreadable file gives one error about the whole file, with no position.
    /// `kinds` are the job kinds its jobs may be of besides lists of commands (`EngineHost.kinds`).
    public static func load(contentsOfFile path: String, kinds: [any JobKind] = []) throws(ManifestErrors) -> Manifest {
        let yaml = try ManifestSourceFile.text(ofFile: path)
        return try load(yaml: yaml, path: path, kinds: kinds)
    }

    /// Checks the manifest text `yaml` as if it were the file at `path`: `path` names the file
    /// in messages, and its folder is the base of relative workdirs and the default workdir
    /// (so `./scripts/apply.sh` works from any current folder). Workdirs that are written in
    /// the manifest must exist; the default one is not checked.
    public static func load(yaml: String, path: String, kinds: [any JobKind] = []) throws(ManifestErrors) -> Manifest {
        let root = try ManifestLimits.compose(yaml: yaml, path: path)
        var reader = ManifestReader(file: path, kinds: kinds)
        let jobs = reader.read(root)
        guard reader.errors.isEmpty else { throw ManifestErrors(reader.errors) }
        return Manifest(path: path, jobs: jobs, warnings: reader.warnings)
    }
}
