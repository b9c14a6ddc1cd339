#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A small noarch rpm described in code, for `PrivateDNFRoot` to build offline with `rpmbuild`
/// (the tests' and the benchmarks' packages). Its scriptlets are Lua (`%post -p <lua>`), which
/// rpm runs itself: the root needs no shell.
public struct RPMPackageRecipe: Sendable, Hashable {
    /// The package name.
    public var name: String
    public var version: String
    public var release: String
    /// `Requires:` lines, e.g. `lab-b = 2.0-1`.
    public var requires: [String]
    /// `Obsoletes:` lines, e.g. `lab-old`.
    public var obsoletes: [String]
    /// Lua bodies of the scriptlets; `nil` leaves one out.
    public var pre: String?
    public var post: String?
    public var preun: String?
    public var postun: String?
    /// Files the package installs: absolute path inside the root → contents. Those under
    /// `/etc/` are `%config(noreplace)`, as a real package's configuration is.
    public var files: [String: String]
    /// Bytes of incompressible filler in `/usr/share/NAME/filler`, to give a download and an
    /// unpack a size; 0 for none.
    public var fillerBytes: Int

    public init(name: String, version: String = "1.0", release: String = "1", requires: [String] = [], obsoletes: [String] = [],
                pre: String? = nil, post: String? = nil, preun: String? = nil, postun: String? = nil,
                files: [String: String]? = nil, fillerBytes: Int = 0) {
        self.name = name
        self.version = version
        self.release = release
        self.requires = requires
        self.obsoletes = obsoletes
        self.pre = pre
        self.post = post
        self.preun = preun
        self.postun = postun
        self.files = files ?? ["/usr/share/\(name)/version": "\(name) \(version)-\(release)\n"]
        self.fillerBytes = fillerBytes
    }

    /// `version-release`, as dnf names the version.
    public var evr: String { "\(version)-\(release)" }

    /// The rpm's file name, as rpmbuild writes it.
    public var fileName: String { "\(name)-\(version)-\(release).noarch.rpm" }

    /// A `%post` that prints `lines`, one each, as the package's scriptlet output.
    public static func printing(_ lines: [String]) -> String {
        lines.map { "print(\"\(luaEscaped($0))\")" }.joined(separator: "\n")
    }

    /// A scriptlet that writes `lines` to its standard error (Lua's `io.stderr`, which rpm
    /// leaves on the process's descriptor 2).
    public static func printingToStderr(_ lines: [String]) -> String {
        lines.map { "io.stderr:write(\"\(luaEscaped($0))\\n\")" }.joined(separator: "\n")
    }

    /// A scriptlet that fails with `message` (rpm reports it as the scriptlet's error).
    public static func failing(_ message: String) -> String {
        "error(\"\(luaEscaped(message))\")"
    }

    /// A scriptlet that waits until `knob` exists inside the root (at most `seconds`), so that a
    /// test can act while rpm's transaction runs.
    public static func waiting(for knob: String, atMost seconds: Int = 120) -> String {
        """
        local deadline = os.time() + \(seconds)
        while not posix.access("\(luaEscaped(knob))") and os.time() < deadline do
          posix.sleep(1)
        end
        """
    }

    /// The spec file rpmbuild builds it from.
    var spec: String {
        var lines = [
            "Name: \(name)", "Version: \(version)", "Release: \(release)", "Summary: installtop lab package \(name)",
            "License: MIT", "BuildArch: noarch",
        ]
        lines += requires.map { "Requires: \($0)" }
        lines += obsoletes.map { "Obsoletes: \($0)" }
        lines += ["", "%description", "A package of installtop's lab.", "", "%install"]
        let paths = files.keys.sorted() + (fillerBytes > 0 ? ["/usr/share/\(name)/filler"] : [])
        for path in files.keys.sorted() {
            let folder = path.split(separator: "/").dropLast().joined(separator: "/")
            lines.append("mkdir -p %{buildroot}/\(folder)")
            lines.append("cat > %{buildroot}\(path) <<'INSTALLTOP_EOF'")
            lines.append(files[path] ?? "")
            lines.append("INSTALLTOP_EOF")
        }
        if fillerBytes > 0 {
            lines.append("mkdir -p %{buildroot}/usr/share/\(name)")
            lines.append("head -c \(fillerBytes) /dev/urandom > %{buildroot}/usr/share/\(name)/filler")
        }
        for (section, body) in [("pre", pre), ("post", post), ("preun", preun), ("postun", postun)] {
            guard let body else { continue }
            lines += ["", "%\(section) -p <lua>", body]
        }
        lines += ["", "%files"] + paths.map { $0.hasPrefix("/etc/") ? "%config(noreplace) \($0)" : $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func luaEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }
}
