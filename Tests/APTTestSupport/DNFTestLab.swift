import InstallDrivers

/// The dnf tests' packages (noarch, Lua scriptlets only): a library and an application that
/// needs exactly its version, one that prints from its `%post`, one whose `%post` fails, one
/// whose `%post` waits for a knob file in the root, one dnf's reboot rule names, and an old
/// package a new one obsoletes.
public enum DNFTestLab {
    public static func library(_ version: String) -> RPMPackageRecipe { RPMPackageRecipe(name: "lab-lib", version: version) }

    public static func application(_ version: String) -> RPMPackageRecipe {
        RPMPackageRecipe(name: "lab-app", version: version, requires: ["lab-lib = \(version)-1"])
    }

    /// `application` whose `%post` prints `lab-app VERSION set up`, with a configuration file
    /// (`/etc/lab-app.conf`, `%config(noreplace)`).
    public static func printingApplication(_ version: String) -> RPMPackageRecipe {
        RPMPackageRecipe(name: "lab-app", version: version, requires: ["lab-lib = \(version)-1"],
                         post: RPMPackageRecipe.printing(["lab-app \(version) set up"]),
                         files: ["/usr/share/lab-app/version": "lab-app \(version)-1\n", configuration: "level = \(version)\n"])
    }

    /// `printingApplication`'s configuration file.
    public static let configuration = "/etc/lab-app.conf"

    public static let printer = RPMPackageRecipe(name: "lab-print", post: RPMPackageRecipe.printing(["lab-print: set up", "lab-print: ready"]))
    /// Its `%pre` prints, its `%post` writes a line to stdout and one to stderr, its `%preun`
    /// and `%postun` each one to stderr.
    public static let stderrPrinter = RPMPackageRecipe(name: "lab-stderr", pre: RPMPackageRecipe.printing(["lab-stderr: pre"]),
                                                       post: RPMPackageRecipe.printing(["lab-stderr: post stdout"]) + "\n"
                                                           + RPMPackageRecipe.printingToStderr(["lab-stderr: post stderr"]),
                                                       preun: RPMPackageRecipe.printingToStderr(["lab-stderr: preun stderr"]),
                                                       postun: RPMPackageRecipe.printingToStderr(["lab-stderr: postun stderr"]))
    public static let failing = RPMPackageRecipe(name: "lab-fail", post: RPMPackageRecipe.failing("lab-fail cannot start"))
    /// Its `%post` waits for `slowKnob` inside the root, 15 minutes at most: every test that uses
    /// it makes the knob when it is done, and at 2 minutes a loaded suite's test looked after the
    /// wait had ended by itself (DNFUndoTests' "rpm still runs" failed so, at load 15-77).
    public static let slow = RPMPackageRecipe(name: "lab-slow", post: RPMPackageRecipe.waiting(for: slowKnob, atMost: 900))
    public static let slowKnob = "/lab-slow-go"
    /// A name dnf's needs-restarting rule lists.
    public static let firmware = RPMPackageRecipe(name: "linux-firmware", version: "20260101")
    public static let old = RPMPackageRecipe(name: "lab-old")
    public static let successor = RPMPackageRecipe(name: "lab-new", obsoletes: ["lab-old"])

    /// Every package at its first version.
    public static let first: [RPMPackageRecipe] = [library("1.0"), application("1.0"), printer, failing, slow, firmware, old]
}
