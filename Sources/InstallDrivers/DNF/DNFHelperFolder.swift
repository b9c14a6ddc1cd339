/// The dnf helper (embedded in the executable, `DNFHelperFiles`: the script `installtop-dnf.py`
/// and its Python package `installtop_dnf/`), written to a private folder of its own
/// (`installtop-dnf-…`: the helper removes it itself when it outlives installtop) the first time
/// a job needs it; `remove` deletes it.
public final class DNFHelperFolder: Sendable {
    private let folder: ShippedFilesFolder

    /// `files` must hold `installtop-dnf.py` and the modules of `installtop_dnf/` it imports.
    public init(files: [ShippedFilesFolder.File]) {
        folder = ShippedFilesFolder("installtop's dnf helper", prefix: "installtop-dnf", files: files)
    }

    /// The helper, written now if it was not yet.
    /// - Throws: `DNFPlanError` (`other`) naming the folder that could not be written, and why.
    public func helper() throws(DNFPlanError) -> DNFHelper {
        do {
            return DNFHelper(script: try folder.path() + "/installtop-dnf.py")
        } catch {
            throw DNFPlanError(kind: "other", message: error.description)
        }
    }

    /// Deletes the folder, if it was written.
    public func remove() {
        folder.remove()
    }
}
