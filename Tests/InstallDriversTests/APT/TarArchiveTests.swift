import APTTestSupport
import Foundation
@testable import InstallDrivers
import Testing

/// The tar reader a cache hit's check uses (`dpkg-deb --ctrl-tarfile`): the forms tar and
/// dpkg-deb write, long names, and a truncated archive.
@Suite("tar members read in memory")
struct TarArchiveTests {
    /// A tar of `files` (relative path, text) in this order, written by GNU tar in `format`,
    /// `./` before each name as dpkg-deb writes them.
    private static func tar(_ files: KeyValuePairs<String, String>, format: String) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-tar-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (path, text) in files {
            let file = folder + "/tree/" + path
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: false, encoding: .utf8)
        }
        _ = try TestCommand.check(["/bin/tar", "--format=\(format)", "-C", folder + "/tree", "-cf", folder + "/out.tar"] + files.map { "./" + $0.key })
        return Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/out.tar")))
    }

    @Test("ustar, gnu and pax archives: the named regular files' contents, a name not there absent", arguments: ["ustar", "gnu", "posix"])
    func formats(_ format: String) throws {
        let long = String(repeating: "d", count: 120) + "/" + String(repeating: "f", count: 60)
        let bytes = try Self.tar(["control": "Package: a\nVersion: 1\n", "md5sums": "", "sub/x": "inner", long: "far"],
                                 format: format)
        let files = TarArchive(bytes).files(named: ["control", "md5sums", "sub/x", long, "absent"])
        #expect(files["control"].map { String(decoding: $0, as: UTF8.self) } == "Package: a\nVersion: 1\n")
        #expect(files["md5sums"] == [])
        #expect(files["sub/x"].map { String(decoding: $0, as: UTF8.self) } == "inner")
        #expect(files[long].map { String(decoding: $0, as: UTF8.self) } == "far", "a name over 100 bytes in \(format)")
        #expect(files["absent"] == nil)
    }

    @Test("A truncated archive gives the members before the cut, and nothing breaks")
    func truncated() throws {
        // `a`'s header, its 2,000 bytes (to 2,512, padded to 2,560), then `b`'s header.
        let bytes = try Self.tar(["a": String(repeating: "x", count: 2000), "b": "tail"], format: "gnu")
        for cut in [0, 100, 512, 700, 2511] {
            #expect(TarArchive(Array(bytes.prefix(cut))).files(named: ["a", "b"]).isEmpty, "cut at \(cut)")
        }
        // a whole, b not yet: its header cut.
        let beforeB = TarArchive(Array(bytes.prefix(2560 + 100))).files(named: ["a", "b"])
        #expect(beforeB["a"]?.count == 2000 && beforeB["b"] == nil)
        #expect(TarArchive(bytes).files(named: ["a", "b"]).count == 2)
    }

    @Test("A .deb's control area: control and md5sums as dpkg-deb shows them")
    func debControlArea() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        var package = TestPackage(name: "lab-sums", files: ["/usr/share/lab/sums": "text\n"])
        package.withMD5Sums = true
        try apt.publish([package])
        let deb = apt.repository + "/" + package.fileName
        let tar = try #require(SystemCommand.stdoutBytes(of: ["/usr/bin/dpkg-deb", "--ctrl-tarfile", deb]))
        let files = TarArchive(tar).files(named: ["control", "md5sums"])
        let control = try TestCommand.check(["/usr/bin/dpkg-deb", "--info", deb, "control"]).stdout
        let sums = try TestCommand.check(["/usr/bin/dpkg-deb", "--info", deb, "md5sums"]).stdout
        #expect(files["control"].map { String(decoding: $0, as: UTF8.self) } == control)
        #expect(files["md5sums"].map { String(decoding: $0, as: UTF8.self) } == sums)
        #expect(sums.hasSuffix("  usr/share/lab/sums\n"), "dh_md5sums' form: \(sums)")
    }
}
