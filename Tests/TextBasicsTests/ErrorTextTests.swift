import FoundationEssentials
import Glibc
import Testing
import TextBasics

/// `ErrorText` says a failed file operation's path and the system's reason.
@Suite("ErrorText: a failed file operation in the system's words")
struct ErrorTextTests {
    @Test("a folder that cannot be made under a file: the path and ENOTDIR's text")
    func fileError() throws {
        let base = "/tmp/textbasics-\(getpid())"
        #expect(FileManager.default.createFile(atPath: base, contents: Data()))
        defer { unlink(base) }
        do {
            try FileManager.default.createDirectory(atPath: base + "/x/y", withIntermediateDirectories: true)
            Issue.record("a folder was made under a file")
        } catch {
            let reason = ErrorText.reason(error)
            #expect(reason.hasSuffix("Not a directory") || reason.hasSuffix("File exists"), "\(reason)")
            #expect(reason.contains(base), "\(reason)")
        }
    }

    @Test("an errno is its strerror text; any other error its description")
    func others() {
        #expect(ErrorText.reason(POSIXError(.EACCES)) == "Permission denied")
        struct Own: Error, CustomStringConvertible { var description: String { "own words" } }
        #expect(ErrorText.reason(Own()) == "own words")
    }
}
