#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import CDispatch

/// Gives dpkg back its record of what a package's conffiles were originally, after an undo
/// installed the package from a rebuilt .deb (rule 36; issue 35, item 4).
///
/// A rebuilt .deb carries each conffile as it is on disk, an administrator's edit included, and
/// dpkg records the md5 of what a package ships as the conffile's original: installed, the edit
/// would look like the package's own content and the next upgrade would replace it silently
/// (Documentation/PACKAGE-FACTS.md). The hashes dpkg had recorded when the version was kept are written back into
/// its status (`Conffiles:`), so dpkg sees the file as edited again, as it would after an
/// install from the original .deb.
///
/// Why dpkg's status file and not a dpkg command: no dpkg or apt command sets a conffile's
/// recorded hash (dpkg records what the package ships, `dpkg --set-selections` and
/// `--update-avail` touch other fields), and the original content is gone, so no .deb can be
/// built that makes dpkg record it. dpkg's journal (`updates/`) would be applied by dpkg's next
/// run, but apt refuses to run while it holds entries ("dpkg was interrupted"). So the status
/// file is rewritten the way dpkg writes it: under dpkg's two locks, taken as apt takes them
/// (`lock-frontend`, then `lock`, fcntl write locks), only when dpkg's journal is empty (else
/// the journal's copy of the package would win), to `status-new`, synced, the old one linked
/// to `status-old`, then renamed over `status` and the folder synced (dpkg's
/// `atomic_file_commit`). Only the hash words of the named conffiles of the named package at
/// the named version change; every other byte stays.
public enum DpkgConffileRecord {
    /// One package's conffile hashes to give back.
    public struct Restoration: Sendable, Hashable {
        public var package: String
        /// The version the hashes belong to: nothing changes unless dpkg has exactly it.
        public var version: String
        public var architecture: String?
        /// Path to the md5 dpkg had recorded as its original.
        public var hashes: [String: String]

        public init(package: String, version: String, architecture: String?, hashes: [String: String]) {
            self.package = package
            self.version = version
            self.architecture = architecture
            self.hashes = hashes
        }
    }

    /// Writes `restorations` into dpkg's status in `administrativeDirectory`, waiting up to
    /// `lockWait` seconds for dpkg's locks. Returns the `PACKAGE PATH` of every hash changed.
    /// - Throws: `DpkgConffileRecordError` when the locks cannot be had, the journal is not
    ///   empty, or the status cannot be read or written (then the status is as it was).
    public static func restore(_ restorations: [Restoration], administrativeDirectory: String,
                               lockWait: Double = 120) throws(DpkgConffileRecordError) -> [String] {
        let wanted = restorations.filter { !$0.hashes.isEmpty }
        guard !wanted.isEmpty else { return [] }
        let frontend = try lock(administrativeDirectory + "/lock-frontend", waiting: lockWait)
        defer { close(frontend) }
        let database = try lock(administrativeDirectory + "/lock", waiting: lockWait)
        defer { close(database) }
        let journal = (try? FileManager.default.contentsOfDirectory(atPath: administrativeDirectory + "/updates")) ?? []
        // dpkg names its journal entries by number; `tmp.i` is its scratch file.
        guard !journal.contains(where: { !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            throw DpkgConffileRecordError("dpkg's journal (\(administrativeDirectory)/updates) is not empty: run dpkg --configure -a")
        }
        let statusPath = administrativeDirectory + "/status"
        guard let status = try? String(contentsOfFile: statusPath, encoding: .utf8) else {
            throw DpkgConffileRecordError("cannot read \(statusPath)")
        }
        let (text, changed) = rewrite(status, restoring: wanted)
        guard !changed.isEmpty else { return [] }
        try commit(text, to: statusPath, folder: administrativeDirectory)
        return changed
    }

    /// `status` with the hash words of `restorations` written back; the text and what changed.
    static func rewrite(_ status: String, restoring restorations: [Restoration]) -> (String, [String]) {
        var stanzas = status.components(separatedBy: "\n\n")
        var changed: [String] = []
        for index in stanzas.indices {
            var lines = stanzas[index].components(separatedBy: "\n")
            func value(_ name: String) -> String? {
                lines.first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
            }
            guard let name = value("Package"),
                  let restoration = restorations.first(where: {
                      $0.package == name && $0.version == value("Version")
                          && ($0.architecture == nil || $0.architecture == value("Architecture"))
                  }),
                  value("Status") == "install ok installed",
                  let start = lines.firstIndex(where: { $0 == "Conffiles:" }) else { continue }
            var line = start + 1
            while line < lines.count, lines[line].hasPrefix(" ") {
                var words = lines[line].dropFirst().components(separatedBy: " ")
                if words.count >= 2, let hash = restoration.hashes[words[0]], words[1] != hash {
                    words[1] = hash
                    lines[line] = " " + words.joined(separator: " ")
                    changed.append("\(name) \(words[0])")
                }
                line += 1
            }
            stanzas[index] = lines.joined(separator: "\n")
        }
        return (stanzas.joined(separator: "\n\n"), changed)
    }

    /// A write lock on `path` (created 0640 as apt does), polled until `waiting` seconds passed.
    private static func lock(_ path: String, waiting: Double) throws(DpkgConffileRecordError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else {
            throw DpkgConffileRecordError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(waiting)
        while true {
            var request = flock()
            request.l_type = Int16(F_WRLCK)
            request.l_whence = Int16(SEEK_SET)
            if fcntl(descriptor, F_SETLK, &request) == 0 { return descriptor }
            let failure = errno
            guard failure == EAGAIN || failure == EACCES, Date() < deadline else {
                close(descriptor)
                throw DpkgConffileRecordError("cannot lock \(path): \(String(cString: strerror(failure)))")
            }
            // Another apt or dpkg holds it: it ends, this waits (a transaction takes seconds).
            usleep(100_000)
        }
    }

    /// dpkg's atomic replacement: `status-new` written and synced, `status` linked to
    /// `status-old`, `status-new` renamed over `status`, the folder synced.
    private static func commit(_ text: String, to statusPath: String, folder: String) throws(DpkgConffileRecordError) {
        let newPath = statusPath + "-new"
        let oldPath = statusPath + "-old"
        var info = stat()
        let mode = stat(statusPath, &info) == 0 ? info.st_mode & 0o7777 : 0o644
        let descriptor = open(newPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw DpkgConffileRecordError("cannot write \(newPath): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let failure = String(cString: strerror(errno))
                close(descriptor)
                unlink(newPath)
                throw DpkgConffileRecordError("cannot write \(newPath): \(failure)")
            }
            written += count
        }
        fchmod(descriptor, mode)
        guard fsync(descriptor) == 0 else {
            let failure = String(cString: strerror(errno))
            close(descriptor)
            unlink(newPath)
            throw DpkgConffileRecordError("cannot sync \(newPath): \(failure)")
        }
        close(descriptor)
        unlink(oldPath)
        _ = link(statusPath, oldPath)
        guard rename(newPath, statusPath) == 0 else {
            let failure = String(cString: strerror(errno))
            unlink(newPath)
            throw DpkgConffileRecordError("cannot replace \(statusPath): \(failure)")
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
