/// A small Debian package described in code, for `PrivateAPTRoot` to build offline with
/// `dpkg-deb` (the demo's packages, the benchmarks', anything that needs real packages without
/// a network or dpkg-dev).
///
/// Maintainer scripts run chrootless, on the host (Documentation/PACKAGE-FACTS.md: `--force-script-chrootless`):
/// a recipe's scripts must write only under `$DPKG_ROOT`, which dpkg sets to the private root.
public struct DebianPackageRecipe: Sendable, Hashable {
    /// The package name: lower case letters, digits, `+`, `-` and `.` (Debian policy 5.6.1).
    public var name: String
    public var version: String
    /// The `Depends:` field, e.g. `demo-libfoo (>= 1.0)`; `nil` for none.
    public var depends: String?
    /// The `Pre-Depends:` field: what must be configured before this is even unpacked (apt
    /// then configures it in a dpkg run of its own before this one's); `nil` for none.
    public var preDepends: String?
    /// The `Conflicts:` field: installing this removes what it names (`chrony` removes
    /// `systemd-timesyncd`); `nil` for none.
    public var conflicts: String?
    /// The first line of `Description:`; a line of its own, so no newline.
    public var summary: String
    /// Shell bodies of the maintainer scripts; `#!/bin/sh` and `set -e` are added, so a failing
    /// command fails the script. `nil` leaves the script out.
    public var preinst: String?
    public var postinst: String?
    public var prerm: String?
    public var postrm: String?
    /// Files the package installs: absolute path inside the root (`/etc/demo.conf`) → contents.
    public var files: [String: String]
    /// Paths among `files` that are conffiles.
    public var conffiles: [String]
    /// `DEBIAN/triggers` (`interest NAME`, `activate-noawait NAME`, one a line); `nil` for none.
    public var triggers: String?
    /// Marked `Essential: yes`, as perl-base or dpkg are.
    public var essential: Bool
    /// Whether the .deb carries `DEBIAN/md5sums`, as every package built by debhelper does
    /// (`dh_md5sums`); without it dpkg computes the sums as it installs (the lab's default).
    public var withMD5Sums = false

    public init(name: String, version: String = "1.0", depends: String? = nil, summary: String? = nil,
                preinst: String? = nil, postinst: String? = nil, prerm: String? = nil, postrm: String? = nil,
                files: [String: String] = [:], conffiles: [String] = [], triggers: String? = nil, essential: Bool = false,
                conflicts: String? = nil, preDepends: String? = nil) {
        self.name = name
        self.version = version
        self.depends = depends
        self.summary = summary ?? "installtop lab package \(name)"
        self.preinst = preinst
        self.postinst = postinst
        self.prerm = prerm
        self.postrm = postrm
        self.files = files
        self.conffiles = conffiles
        self.triggers = triggers
        self.essential = essential
        self.conflicts = conflicts
        self.preDepends = preDepends
    }

    /// A postinst body that asks for a reboot the Debian way, inside the root: touches
    /// `$DPKG_ROOT/run/reboot-required` and appends the package to `reboot-required.pkgs`.
    public static let rebootRequestingPostinst = """
        mkdir -p "$DPKG_ROOT/run"
        touch "$DPKG_ROOT/run/reboot-required"
        echo "$DPKG_MAINTSCRIPT_PACKAGE" >> "$DPKG_ROOT/run/reboot-required.pkgs"
        """

    /// The package's file name in the repository (architecture `all`).
    public var fileName: String { "\(name)_\(version)_all.deb" }

    /// `DEBIAN/control`, ending in a newline. The same text goes into the repository's index.
    public var control: String {
        var text = """
            Package: \(name)
            Version: \(version)
            Architecture: all
            Maintainer: installtop lab <lab@invalid>

            """
        if essential { text += "Essential: yes\n" }
        if let preDepends { text += "Pre-Depends: \(preDepends)\n" }
        if let depends { text += "Depends: \(depends)\n" }
        if let conflicts { text += "Conflicts: \(conflicts)\n" }
        text += "Description: \(summary)\n"
        return text
    }

    /// The maintainer scripts present, by their file name in `DEBIAN/`, in a fixed order.
    public var maintainerScripts: [(name: String, text: String)] {
        [("preinst", preinst), ("postinst", postinst), ("prerm", prerm), ("postrm", postrm)].compactMap { name, body in
            body.map { (name, "#!/bin/sh\nset -e\n\($0)\n") }
        }
    }
}
