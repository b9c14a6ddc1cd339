import Foundation
import Testing
@testable import installtop

/// `apt undo --chroot`: apt in a chroot sees only the chroot, so the kept .debs are put in it
/// for the undo (found undoing a bookworm-security upgrade in a debootstrap chroot: apt said
/// "Unsupported file … given on commandline" for every kept file outside it).
@Suite("APTUndoStaging: kept versions where apt can read them")
struct APTUndoStagingTests {
    @Test("in a chroot the kept files are linked into var/cache/installtop/undo-RUN and named as apt inside sees them; removed after")
    func stagedInTheChroot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-staging-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let chroot = folder + "/chroot"
        try FileManager.default.createDirectory(atPath: chroot + "/var/cache", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/undo/7", withIntermediateDirectories: true)
        let kept = [folder + "/undo/7/lab-a_1.0_all.deb", folder + "/undo/7/lab-b_1.0_all.deb"]
        for file in kept { try Data(file.utf8).write(to: URL(fileURLWithPath: file)) }

        let (staging, named) = try APTUndoStaging.stage(kept, as: "undo-7", chroot: chroot)
        #expect(named == ["/var/cache/installtop/undo-7/lab-a_1.0_all.deb", "/var/cache/installtop/undo-7/lab-b_1.0_all.deb"])
        for (inside, original) in zip(named, kept) {
            #expect(FileManager.default.contents(atPath: chroot + inside) == Data(original.utf8), "\(inside) is the kept file")
        }
        staging.remove()
        #expect(!FileManager.default.fileExists(atPath: chroot + "/var/cache/installtop"), "nothing is left in the chroot")
        #expect(kept.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the kept files stay kept")
    }

    @Test("without a chroot the kept files are used where they are, and nothing is made")
    func usedInPlaceWithoutAChroot() throws {
        let (staging, named) = try APTUndoStaging.stage(["/var/lib/installtop/undo/3/x_1_all.deb"], as: "undo-3", chroot: nil)
        #expect(named == ["/var/lib/installtop/undo/3/x_1_all.deb"])
        #expect(staging.folder == nil)
    }
}
