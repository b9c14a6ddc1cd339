import Foundation
import RestartScan
import Testing

/// The running kernel against the newest installed under a test root, and `run/reboot-required`.
@Suite("reboot needed")
struct KernelCheckTests {
    @Test("a newer vmlinuz than the running kernel needs a reboot, naming both")
    func newerKernel() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("proc/sys/kernel/osrelease", "6.1.0-9-amd64\n")
        try folder.write("root/boot/vmlinuz-6.1.0-9-amd64", "")
        try folder.write("root/boot/vmlinuz-6.1.0-18-amd64", "")
        try folder.write("root/boot/config-6.1.0-21-amd64", "")

        let reasons = folder.scanner.rebootReasons()

        #expect(reasons == [.newerKernel(running: "6.1.0-9-amd64", installed: "6.1.0-18-amd64")])
    }

    @Test("the running kernel being the newest needs nothing")
    func runningNewest() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("proc/sys/kernel/osrelease", "6.1.0-18-amd64\n")
        try folder.write("root/boot/vmlinuz-6.1.0-9-amd64", "")
        try folder.write("root/boot/vmlinuz-6.1.0-18-amd64", "")

        #expect(folder.scanner.rebootReasons().isEmpty)
    }

    @Test("without vmlinuz files, lib/modules folders with a modules.dep count")
    func modulesOnly() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("proc/sys/kernel/osrelease", "6.8.0-40-generic\n")
        try folder.write("root/lib/modules/6.8.0-40-generic/modules.dep", "")
        try folder.write("root/lib/modules/6.8.0-45-generic/modules.dep", "")
        // A removed kernel's leftover folder has no modules.dep.
        try folder.write("root/lib/modules/6.8.0-50-generic/extra/left.ko", "")

        #expect(folder.scanner.rebootReasons() == [.newerKernel(running: "6.8.0-40-generic", installed: "6.8.0-45-generic")])
    }

    @Test("run/reboot-required with its .pkgs, each package once")
    func rebootRequiredFile() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("root/run/reboot-required", "*** System restart required ***\n")
        try folder.write("root/run/reboot-required.pkgs", "libc6\nlinux-image-amd64\nlibc6\n")

        #expect(folder.scanner.rebootReasons() == [.rebootRequiredFile(packages: ["libc6", "linux-image-amd64"])])
    }

    @Test("release order: numbers as numbers, ~ before anything")
    func order() {
        #expect(KernelVersions.precedes("6.1.0-9-amd64", "6.1.0-18-amd64"))
        #expect(!KernelVersions.precedes("6.1.0-18-amd64", "6.1.0-9-amd64"))
        #expect(KernelVersions.precedes("5.15.0-91-generic", "6.2.0-1-generic"))
        #expect(KernelVersions.precedes("6.12~rc1", "6.12"))
        #expect(KernelVersions.precedes("6.12", "6.12.1"))
        #expect(!KernelVersions.precedes("6.1.0", "6.1.0"))
        #expect(KernelVersions.newest(["4.19.0-6", "4.19.0-25", "4.19.0-10"]) == "4.19.0-25")
    }
}
