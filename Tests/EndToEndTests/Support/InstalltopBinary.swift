import Foundation

/// Where the `installtop` executable under test is.
enum InstalltopBinary {
    /// The executable: `$INSTALLTOP_BINARY` when set; else the `installtop` next to the test
    /// bundle (same build folder and configuration as the tests); else the package's
    /// `.build/debug/installtop`, found by walking up from this source file to Package.swift.
    ///
    /// - Throws: `EndToEndError.binaryMissing` naming every place looked at, when none holds an
    ///   executable (run `swift build` first).
    static func path(sourceFile: String = #filePath) throws -> String {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["INSTALLTOP_BINARY"], !explicit.isEmpty {
            candidates.append(explicit)
        }
        if let testRunner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(folder(containing: testRunner) + "/installtop")
        }
        if let root = packageRoot(from: sourceFile) {
            candidates.append(root + "/.build/debug/installtop")
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return found
        }
        throw EndToEndError.binaryMissing(searched: candidates)
    }

    /// The nearest folder above `file` holding a Package.swift: the checkout, whose
    /// `Packaging` a test may read.
    static func packageRoot(from file: String = #filePath) -> String? {
        var folder = folder(containing: file)
        while folder != "/" && !folder.isEmpty {
            if FileManager.default.fileExists(atPath: folder + "/Package.swift") { return folder }
            folder = self.folder(containing: folder)
        }
        return nil
    }

    /// The test runner may be `…/debug/installtopPackageTests.xctest` (a file) or an executable
    /// inside such a bundle folder; either way the products sit next to the `.xctest`.
    private static func folder(containing path: String) -> String {
        var folder = (path as NSString).deletingLastPathComponent
        while folder.contains(".xctest") { folder = (folder as NSString).deletingLastPathComponent }
        return folder
    }
}
