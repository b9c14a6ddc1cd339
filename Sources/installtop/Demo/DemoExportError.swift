/// Why `installtop demo --export PATH` wrote nothing.
enum DemoExportError: Error, CustomStringConvertible {
    case notAFolder(String)
    case wouldOverwrite(path: String, files: [String])
    case cannotWrite(path: String, reason: String)

    var description: String {
        switch self {
        case .notAFolder(let path):
            return "\(path) exists and is not a folder"
        case .wouldOverwrite(let path, let files):
            return "\(path) already has \(files.joined(separator: ", ")); choose a new or empty folder"
        case .cannotWrite(let path, let reason):
            return "cannot write the demo to \(path): \(reason)"
        }
    }
}
