#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallHistory
import Testing
@testable import installtop

/// The dnf rules of `--confirm` (issue 57): which plans cannot be armed because their revert
/// could not be planned or a version could not be kept, which packages take effect only after
/// a reboot, and which command the engine runs to revert a window at its deadline.
@Suite("Commit-confirmed dnf jobs: arming refusals, reboot-only packages, the engine's revert")
struct DNFArmingRefusalTests {
    private static func item(_ action: DNFPlanItem.Action, _ name: String, old: String? = nil, new: String? = nil,
                             protected: Bool = false) -> DNFPlanItem {
        DNFPlanItem(action: action, name: name, arch: "noarch", oldVersion: old, newVersion: new, isProtected: protected)
    }

    @Test("A protected package installed (its revert would remove it) or removed is refused; a protected one upgraded is not")
    func protectedPackages() {
        let items = [Self.item(.install, "dnf", new: "4.14-1", protected: true), Self.item(.remove, "systemd", old: "252-1", protected: true),
                     Self.item(.upgrade, "sudo", old: "1.9-1", new: "1.9-2", protected: true)]
        let reasons = DNFArmingRefusal.reasons(items, installed: ["systemd.noarch": ["252-1"], "sudo.noarch": ["1.9-1"]], unrebuildable: [:])
        #expect(reasons.count == 2, "\(reasons)")
        #expect(reasons.first?.hasPrefix("dnf is protected") == true && reasons.first?.contains("the revert would remove it") == true, "\(reasons)")
        #expect(reasons.last?.hasPrefix("systemd is protected") == true && reasons.last?.contains("its removal cannot be armed") == true,
                "\(reasons)")
    }

    @Test("A version taken away must be the one rpm holds (alone, when it is replaced) and rebuildable from its files; installs need nothing")
    func keepableVersions() {
        let upgrade = Self.item(.upgrade, "lab-app", old: "1.0-1", new: "2.0-1")
        let removal = Self.item(.remove, "kernel-core", old: "6.1-1")
        let install = Self.item(.install, "lab-new", new: "1.0-1")
        let fine = DNFArmingRefusal.reasons([upgrade, removal, install],
                                            installed: ["lab-app.noarch": ["1.0-1"], "kernel-core.noarch": ["6.1-1", "6.2-1"]], unrebuildable: [:])
        #expect(fine.isEmpty, "an installonly removal leaves the other versions: \(fine)")

        let duplicate = DNFArmingRefusal.reasons([upgrade], installed: ["lab-app.noarch": ["1.0-1", "0.9-1"]], unrebuildable: [:])
        #expect(duplicate == ["lab-app cannot be kept for the revert: the rpm database has 0.9-1 and 1.0-1 (lab-app.noarch), not 1.0-1 alone"])
        let gone = DNFArmingRefusal.reasons([removal], installed: [:], unrebuildable: [:])
        #expect(gone == ["kernel-core cannot be kept for the revert: the rpm database has none of it (kernel-core.noarch), not 6.1-1 alone"])

        let changed = DNFArmingRefusal.reasons([upgrade, install], installed: ["lab-app.noarch": ["1.0-1"]],
                                               unrebuildable: ["lab-app": ["/usr/share/lab-app/version is missing"], "lab-new": ["/x is missing"]])
        #expect(changed == ["lab-app 1.0-1 cannot be kept for the revert: /usr/share/lab-app/version is missing (rpm -V), "
                            + "so it cannot be rebuilt from its installed files"])
        #expect(DNFArmingRefusal.replaced([upgrade, removal, install, upgrade]) == ["kernel-core", "lab-app"])
    }

    @Test("The kernel's packages and the microcode take effect after a reboot; other packages, linux-firmware too, do not")
    func rebootOnly() {
        let items = ["kernel", "kernel-core", "kernel-modules-extra", "microcode_ctl", "linux-firmware", "lab-kernelish", "glibc"]
            .map { Self.item(.install, $0, new: "1-1") }
        #expect(DNFArmingRefusal.rebootOnly(items) == ["kernel", "kernel-core", "kernel-modules-extra", "microcode_ctl"])
    }

    @Test("The engine reverts a window with its own tool's revert: dnf's for a dnf window, apt's for an apt one")
    func engineRevertCommand() {
        let now = Date()
        let dnf = ConfirmWindow(run: 4, armedAt: now, deadline: now, tool: "dnf", installRoot: "/srv/image")
        #expect(ConfirmDeadlineWatcher.revertCommand(for: dnf, historyDatabase: "/h.sqlite3")
                == ["dnf", "revert", "4", "--due", "--yes", "--plain", "--history-db", "/h.sqlite3"])
        let apt = ConfirmWindow(run: 5, armedAt: now, deadline: now)
        #expect(ConfirmDeadlineWatcher.revertCommand(for: apt, historyDatabase: "/h.sqlite3").prefix(3) == ["apt", "revert", "5"])
    }
}
