/// A small Debian package for tests, built offline by `APTTestRoot.publish` with `dpkg-deb`.
/// Its maintainer scripts must write only under `$DPKG_ROOT` (PACKAGES.md: scripts run
/// chrootless, on the host).
public struct TestPackage: Sendable {
    public var name: String
    public var version: String
    /// The `Depends:` field, e.g. `lab-base (>= 1.0)`; `nil` for none.
    public var depends: String?
    /// Shell bodies of the maintainer scripts (`#!/bin/sh` and `set -e` are added).
    public var preinst: String?
    public var postinst: String?
    public var prerm: String?
    /// Files the package installs: path inside the root (`/etc/lab.conf`) → contents.
    public var files: [String: String]
    /// Paths among `files` that are conffiles.
    public var conffiles: [String]

    public init(name: String, version: String = "1.0", depends: String? = nil, preinst: String? = nil,
                postinst: String? = nil, prerm: String? = nil, files: [String: String] = [:], conffiles: [String] = []) {
        self.name = name
        self.version = version
        self.depends = depends
        self.preinst = preinst
        self.postinst = postinst
        self.prerm = prerm
        self.files = files
        self.conffiles = conffiles
    }

    /// A postinst that asks for a reboot the Debian way, inside the root.
    public static let rebootRequestingPostinst = """
        mkdir -p "$DPKG_ROOT/run"
        touch "$DPKG_ROOT/run/reboot-required"
        echo "$DPKG_MAINTSCRIPT_PACKAGE" >> "$DPKG_ROOT/run/reboot-required.pkgs"
        """

    /// The package's file name in the repository.
    public var fileName: String { "\(name)_\(version)_all.deb" }
}
