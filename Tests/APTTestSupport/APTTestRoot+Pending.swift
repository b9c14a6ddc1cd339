import Foundation

extension APTTestRoot {
    /// The folder that holds the root, its repository and configuration (`remove()` deletes it).
    public var folder: String { (root as NSString).deletingLastPathComponent }

    /// Publishes `packages` into a second repository of this root, in `folder/security`, whose
    /// Release file says what Debian's security archive says (`Label: Debian-Security`, `Suite:
    /// stable-security`), so apt names their origin `Debian-Security:12/stable-security`; then
    /// `apt-get update`. Call it again to publish newer versions.
    public func publishSecurity(_ packages: [TestPackage]) throws {
        try stageSecurity(packages)
        try aptGet(["-q", "update"], check: true)
    }

    /// `publishSecurity` without the `apt-get update`: the archive offers the packages, apt's
    /// lists do not know them yet (what a refresh brings).
    public func stageSecurity(_ packages: [TestPackage]) throws {
        let archive = try APTTestRoot(folder: folder + "/security")
        try archive.publish(packages)
        let index = archive.repository + "/Packages"
        let size = try FileManager.default.attributesOfItem(atPath: index)[.size] as? Int ?? 0
        let sum = try TestCommand.check(["/usr/bin/sha256sum", index]).stdout.split(separator: " ").first.map(String.init) ?? ""
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'UTC'"
        // Without a Date apt warns; without the index's hash it ignores the index.
        let release = """
            Origin: Debian
            Label: Debian-Security
            Suite: stable-security
            Codename: bookworm-security
            Version: 12
            Date: \(formatter.string(from: Date().addingTimeInterval(-60)))
            SHA256:
             \(sum) \(size) Packages

            """
        try release.write(toFile: archive.repository + "/Release", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/etc/apt/sources.list.d", withIntermediateDirectories: true)
        try "deb [trusted=yes] file:\(archive.repository) ./\n".write(toFile: root + "/etc/apt/sources.list.d/security.list", atomically: true, encoding: .utf8)
    }

    /// `apt-mark hold PACKAGE` in this root.
    public func hold(_ package: String) throws {
        try TestCommand.check(["/usr/bin/apt-mark", "hold", package], environment: environment)
    }

    /// Pins `package` at `version` with priority 1001 in the root's `preferences.d`: apt's
    /// candidate stays there whatever the lists offer.
    public func pin(_ package: String, at version: String) throws {
        try "Package: \(package)\nPin: version \(version)\nPin-Priority: 1001\n"
            .write(toFile: root + "/etc/apt/preferences.d/\(package)", atomically: true, encoding: .utf8)
    }

    /// Marks every version of `package` in the repository's index as phased at `percentage`,
    /// runs `apt-get update`, and makes apt in this root apply phasing, as it does on a system
    /// (`Never-Include-Phased-Updates`; apt leaves phasing out in a root other than `/`).
    public func phase(_ package: String, percentage: Int) throws {
        let index = repository + "/Packages"
        let text = try String(contentsOfFile: index, encoding: .utf8)
        let phased = text.components(separatedBy: "\n\n").map { stanza in
            stanza.hasPrefix("Package: \(package)\n") ? stanza + "\nPhased-Update-Percentage: \(percentage)" : stanza
        }.joined(separator: "\n\n")
        try phased.write(toFile: index, atomically: true, encoding: .utf8)
        try "APT::Get::Never-Include-Phased-Updates \"true\";\n"
            .write(toFile: root + "/etc/apt/apt.conf.d/50phasing", atomically: true, encoding: .utf8)
        try aptGet(["-q", "update"], check: true)
    }
}
