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
        guard yaml.utf8.count <= ManifestLimits.maximumFileSize else {
            throw ManifestErrors([ManifestError(
                file: path, line: 1, column: 1,
                message: "the manifest is larger than \(ManifestLimits.maximumFileSize / 1024 / 1024) MiB, the most installtop reads")])
        }
        let root: Node?
        do {
            // `.basic`: plain scalars are resolved by `Node.tagName`, and duplicate keys are found
            // by text alone, so `1` and `"1"` in one mapping are duplicates (as they have been
            // since manifests were composed with Yams' `.basic`, to keep ICU's regular expressions
            // from running).
            root = try YAMLNodes.compose(yaml: yaml, .basic)
        } catch {
            throw ManifestErrors([ManifestError(error, file: path)])
        }
        if let root { try ManifestLimits.checkExpansion(of: root, file: path) }
        var reader = ManifestReader(file: path, kinds: kinds)
        let jobs = reader.read(root)
        guard reader.errors.isEmpty else { throw ManifestErrors(reader.errors) }
        return Manifest(path: path, jobs: jobs, warnings: reader.warnings)
    }
}
