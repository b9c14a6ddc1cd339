import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// Keeping that starts as apt does, from the simulated plan (rule 33): apt's hook then waits
/// only for what is left, and apt's own plan decides what stands. Cached originals are checked
/// by their control area in one `dpkg-deb` (name, version, architecture and md5sums). Private
/// roots only; the host's packages are never touched.
@Suite("apt: keeping ahead of apt's hook")
struct APTKeepingAheadTests {
    /// lab-base, lab-app (with md5sums, as real packages) and lab-tool at 1.0 installed, 2.0
    /// published; lab-base's and lab-app's 1.0 in apt's cache as apt leaves what it fetched.
    private static func root() throws -> (APTTestRoot, APTEnvironment) {
        let apt = try APTTestRoot()
        var app = TestPackage(name: "lab-app", files: ["/usr/share/lab/app": "app 1.0\n"])
        app.withMD5Sums = true
        try apt.publish([TestPackage(name: "lab-base", files: ["/usr/share/lab/base": "base 1.0\n"]), app,
                         TestPackage(name: "lab-tool", files: ["/usr/share/lab/tool": "tool 1.0\n"])])
        try apt.aptGet(["-y", "install", "lab-base", "lab-app", "lab-tool"], check: true)
        for name in ["lab-base", "lab-app"] {
            // A file: repository is read in place: apt's cache holds nothing of its own.
            let deb = "\(name)_1.0_all.deb"
            #expect(link(apt.repository + "/" + deb, apt.root + "/var/cache/apt/archives/" + deb) == 0)
        }
        return (apt, try APTPlanner.environment(of: PackageJob(request: .upgrade, aptConfig: apt.configuration)))
    }

    private static func upgrade(_ name: String) -> PackageChange {
        PackageChange(package: name, action: .upgrade, oldVersion: "1.0", newVersion: "2.0", architecture: "all")
    }

    private static func source(_ kept: APTKeptVersion) -> APTKeptVersion.Source? {
        if case .kept(_, _, let source) = kept.outcome { return source }
        return nil
    }

    private static func file(_ kept: APTKeptVersion) -> String? {
        if case .kept(let file, _, _) = kept.outcome { return file }
        return nil
    }

    @Test("At the hook, what was kept ahead and still replaced stands, what the hook adds is kept then, what it drops is deleted")
    func hookDecides() throws {
        let host = HostPackageFingerprint()
        let (apt, environment) = try Self.root()
        defer { apt.remove() }
        let folder = apt.root + "/undo/1"
        let ahead = APTKeepingAhead([Self.upgrade("lab-base"), Self.upgrade("lab-app")], keeper: APTVersionKeeper(environment: environment),
                                    into: folder)
        let kept = ahead.finish([Self.upgrade("lab-app"), Self.upgrade("lab-tool")])

        #expect(kept.map(\.package) == ["lab-app", "lab-tool"])
        #expect(kept.map(Self.source) == [.archiveCache, .rebuilt], "lab-app's cached 1.0 matches dpkg's md5sums; lab-tool is not cached")
        for each in kept {
            let file = try #require(Self.file(each))
            #expect(FileManager.default.fileExists(atPath: file))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == ["lab-app_1.0_all.deb", "lab-tool_1.0_all.deb"], "lab-base, which the hook does not replace, is deleted")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A file an earlier transaction of the run kept (a retry's) stays, also when the hook drops its package")
    func earlierFilesStay() throws {
        let (apt, environment) = try Self.root()
        defer { apt.remove() }
        let folder = apt.root + "/undo/4"
        try APTVersionKeeper.makePrivateFolder(folder)
        let earlier = folder + "/lab-base_1.0_all.deb"
        try FileManager.default.copyItem(atPath: apt.repository + "/lab-base_1.0_all.deb", toPath: earlier)
        let ahead = APTKeepingAhead([Self.upgrade("lab-base"), Self.upgrade("lab-app")], keeper: APTVersionKeeper(environment: environment),
                                    into: folder)
        #expect(ahead.finish([Self.upgrade("lab-app")]).map(\.package) == ["lab-app"])
        #expect(FileManager.default.fileExists(atPath: earlier), "recorded for the earlier transaction: not this one's to delete")
    }

    @Test("apt ending before its hook: what was kept ahead is deleted, folder and all")
    func discard() async throws {
        let (apt, environment) = try Self.root()
        defer { apt.remove() }
        let folder = apt.root + "/undo/2"
        APTKeepingAhead([Self.upgrade("lab-base"), Self.upgrade("lab-tool")], keeper: APTVersionKeeper(environment: environment),
                        into: folder).discard()
        #expect(await eventually(timeout: .seconds(120)) { !FileManager.default.fileExists(atPath: folder) })
    }

    @Test("A cached .deb of the same version but another build (other md5sums) is not taken: the version is rebuilt")
    func otherBuildIsRebuilt() throws {
        let (apt, environment) = try Self.root()
        defer { apt.remove() }
        let other = try APTTestRoot()
        defer { other.remove() }
        var rebuilt = TestPackage(name: "lab-app", files: ["/usr/share/lab/app": "another build of 1.0\n"])
        rebuilt.withMD5Sums = true
        try other.publish([rebuilt])
        let cached = apt.root + "/var/cache/apt/archives/" + rebuilt.fileName
        try FileManager.default.removeItem(atPath: cached)
        try FileManager.default.copyItem(atPath: other.repository + "/" + rebuilt.fileName, toPath: cached)

        let kept = APTVersionKeeper(environment: environment).keep([Self.upgrade("lab-app"), Self.upgrade("lab-base")],
                                                                   into: apt.root + "/undo/3")
        #expect(kept.map(Self.source) == [.rebuilt, .archiveCache])
    }
}
