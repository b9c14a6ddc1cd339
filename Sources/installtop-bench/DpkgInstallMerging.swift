import Foundation

/// The cheapest safe point after every package that apt itself can be made to give (issue 32's
/// speed goal): `Immediate-Configure-All` runs dpkg twice a package (`--unpack X.deb`, then
/// `--configure X`); through this `Dir::Bin::dpkg` wrapper each such pair is one
/// `dpkg --install X.deb`, and the configure that follows is answered 0 without a dpkg run.
/// A stop still falls between two packages, each unpacked and configured. The wrapper is a
/// dash script written into the chroot for the measurement and removed after it; it merges only
/// the exact command lines apt 2.6 gives (anything else goes to dpkg unchanged), so it is used
/// only when apt's simulation shows every package configured right after its unpack.
enum DpkgInstallMerging {
    /// The wrapper's path inside the chroot, and the folder of its marks (a file per package it
    /// installed, so that only that package's configure is skipped).
    static let wrapper = "/tmp/installtop-bench-dpkg-install"
    static let marks = "/tmp/installtop-bench-dpkg-install.d"

    /// apt-get options that run dpkg through the wrapper.
    static let options = ["-o", "Dir::Bin::dpkg=\(wrapper)"]

    private static let script = """
        #!/bin/sh
        # installtop-bench: apt's `--unpack --auto-deconfigure X.deb` becomes one `--install`;
        # apt's `--configure X` right after it is then done, and answered without a dpkg run.
        if [ $# -eq 6 ] && [ "$3" = --no-triggers ] && [ "$4" = --unpack ] && [ "$5" = --auto-deconfigure ]; then
            archive=${6##*/}
            /usr/bin/dpkg "$1" "$2" --no-triggers --install --auto-deconfigure "$6" || exit $?
            : > "\(marks)/${archive%%_*}"
            exit 0
        fi
        if [ $# -eq 5 ] && [ "$3" = --no-triggers ] && [ "$4" = --configure ] && [ -e "\(marks)/${5%%:*}" ]; then
            exit 0
        fi
        exec /usr/bin/dpkg "$@"

        """

    /// Whether apt's simulation of `packages` in `chroot` configures every package right after
    /// unpacking it (then merging each pair changes nothing in what dpkg is asked, only how often
    /// it starts).
    static func applies(installing packages: [String], in chroot: String) -> Bool {
        // `APTSimulation.plan` skips the `Conf` lines; here they are the point.
        let steps = APTRealBenchmark.simulation(installing: packages, in: chroot).split(separator: "\n").filter { $0.hasPrefix("Inst ") || $0.hasPrefix("Conf ") }
            .map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        guard !steps.isEmpty, steps.count.isMultiple(of: 2) else { return false }
        return stride(from: 0, to: steps.count, by: 2).allSatisfy { index in
            steps[index].hasPrefix("Inst ") && steps[index + 1] == "Conf " + steps[index].dropFirst(5)
        }
    }

    /// Writes the wrapper and an empty marks folder into `chroot`.
    static func install(in chroot: String) throws {
        try? FileManager.default.removeItem(atPath: chroot + marks)
        try FileManager.default.createDirectory(atPath: chroot + marks, withIntermediateDirectories: true)
        try script.write(toFile: chroot + wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: chroot + wrapper)
    }

    /// How many packages the last run installed through the wrapper; the marks are cleared.
    static func merged(in chroot: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: chroot + marks)) ?? []
        for name in names { try? FileManager.default.removeItem(atPath: chroot + marks + "/" + name) }
        return names.count
    }

    /// Removes the wrapper and its marks from `chroot`.
    static func remove(from chroot: String) {
        try? FileManager.default.removeItem(atPath: chroot + wrapper)
        try? FileManager.default.removeItem(atPath: chroot + marks)
    }
}
