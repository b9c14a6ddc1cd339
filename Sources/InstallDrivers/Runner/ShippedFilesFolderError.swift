/// Why a kind's embedded files could not be written out (`ShippedFilesFolder.path`).
public struct ShippedFilesFolderError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
