import APTTestSupport
import Foundation
import Glibc
import TestProcessSupport

/// The kill matrix's unpack point (issue 47): dpkg held in the middle of writing one of lab-k2's
/// files. dpkg runs no maintainer script while it unpacks, so there is no script to wait in;
/// instead the .deb dpkg is about to unpack is fed to it through a FIFO.
///
/// lab-k2 at the version unpacked is rebuilt uncompressed with `bigFile` (so a byte offset in the
/// .deb is one in the file). While lab-k2's preinst waits (dpkg has read the package's control
/// area, and reads its files next, by opening the .deb again), `engage` puts a FIFO at the .deb's
/// path and a feeder writes the .deb into it up to `fed` bytes of `bigFile`'s contents, then
/// waits for `ROOT/kill/feed-rest` before writing the rest. dpkg-deb passes what it reads on in
/// whole buffers, so dpkg gets somewhat less; once `bigFile.dpkg-new` has begun, dpkg can only
/// write what it got and wait for more: the kill lands with the file half-written, every time.
/// The real .deb is put back at its path before the kill (dpkg-deb keeps the FIFO it opened),
/// so the repair finds it.
struct APTUnpackStall {
    /// The file dpkg is writing when it is killed.
    static let bigFile = "/usr/share/lab-k2/big"
    /// How many bytes of its contents the feeder writes before it waits (of about 160 KiB).
    static let fed = 98_304
    /// What `bigFile` starts with, to find its contents in the .deb.
    static let marker = "LAB-K2-BIG-FILE-STARTS-HERE\n"

    /// The feeder process (a shell), which the caller ends with `end()`.
    let feeder: SpawnedProcess

    /// Rebuilds lab-k2 `version` in `apt`'s repository uncompressed, with `bigFile` (160 KiB) and
    /// its checksum added, and indexes the repository again.
    static func rebuild(_ apt: APTTestRoot, version: String) throws {
        let deb = apt.repository + "/lab-k2_\(version)_all.deb"
        let tree = apt.root + "/kill/lab-k2-tree"
        try TestCommand.check(["/usr/bin/dpkg-deb", "-R", deb, tree])
        let contents = marker + String(repeating: "lab-k2 \(version) big file line\n", count: 6_000)
        try contents.write(toFile: tree + bigFile, atomically: true, encoding: .utf8)
        try TestCommand.check(["/bin/sh", "-c", """
            cd "$1" && if [ -e DEBIAN/md5sums ]; then md5sum "${2#/}" >> DEBIAN/md5sums; fi
            """, "sh", tree, bigFile])
        try TestCommand.check(["/usr/bin/dpkg-deb", "--root-owner-group", "-Znone", "--build", tree, deb])
        try FileManager.default.removeItem(atPath: tree)
        try apt.publish([])
    }

    /// Holds dpkg mid-write of `bigFile`, once lab-k2's preinst waits in `apt` (its pid in
    /// `ROOT/kill/waiting`): the FIFO at the .deb's path, the feeder, the preinst released, then
    /// a wait for `bigFile.dpkg-new` to be begun and the real .deb put back.
    /// - Returns: the stall, and the pid of the `dpkg-deb` that reads the FIFO for dpkg.
    static func engage(_ apt: APTTestRoot, version: String, folder: TestFolder) async throws -> (APTUnpackStall, dpkgDeb: pid_t) {
        let deb = apt.repository + "/lab-k2_\(version)_all.deb"
        let copy = apt.root + "/kill/lab-k2.deb"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: deb, toPath: copy)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy)))
        guard let start = Self.offset(of: Array(marker.utf8), in: bytes) else {
            throw EndToEndError.conditionNotMet("\(bigFile)'s contents to be in \(deb) as they are (an uncompressed .deb)")
        }
        let fifo = apt.root + "/kill/lab-k2.fifo"
        guard mkfifo(fifo, 0o600) == 0, rename(fifo, deb) == 0 else {
            throw EndToEndError.conditionNotMet("a FIFO at \(deb): \(String(cString: strerror(errno)))")
        }
        // The feeder opens the FIFO (and waits there until dpkg-deb opens it), writes the .deb up
        // to `fed` bytes of the file, and the rest once told (or after ten minutes at most).
        let feeder = try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", """
            exec 3>"$1"
            head -c "$2" "$3" >&3
            i=0
            while [ ! -e "$4" ] && [ $i -lt 6000 ]; do sleep 0.1; i=$((i+1)); done
            tail -c +"$(($2 + 1))" "$3" >&3
            """, "sh", deb, String(start + fed), copy, apt.root + "/kill/feed-rest"],
            environment: ["PATH": "/usr/bin:/bin"], workingDirectory: folder.path,
            stdoutPath: "/dev/null", stderrPath: "/dev/null")
        do {
            let reader = try await holdDpkg(apt, deb: deb, copy: copy)
            return (APTUnpackStall(feeder: feeder), reader)
        } catch {
            // A feeder still waiting for its reader would wait for ever.
            kill(feeder.pid, SIGKILL)
            _ = await eventually(timeout: .seconds(10)) { feeder.poll() != nil }
            throw error
        }
    }

    /// Releases the preinst, waits for dpkg to have begun `bigFile`, and puts the real .deb
    /// back: the pid of dpkg's `dpkg-deb`.
    private static func holdDpkg(_ apt: APTTestRoot, deb: String, copy: String) async throws -> pid_t {
        try "".write(toFile: apt.root + "/kill/release", atomically: true, encoding: .utf8)
        let partial = apt.root + bigFile + ".dpkg-new"
        try await waitUntil("dpkg to have begun writing \(bigFile)", timeout: .seconds(120)) {
            ((try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0) > 0
        }
        // The real .deb back where the repair reads it; dpkg-deb reads on from the FIFO it opened.
        let staged = deb + ".real"
        try FileManager.default.copyItem(atPath: copy, toPath: staged)
        guard rename(staged, deb) == 0 else { throw EndToEndError.conditionNotMet("the real .deb back at \(deb)") }
        guard let reader = dpkgDeb(reading: deb) else {
            throw EndToEndError.conditionNotMet("the dpkg-deb that dpkg started on \(deb)")
        }
        return reader
    }

    /// Lets the feeder write the rest (and end), and waits for it; killed after 10 s (it may
    /// still wait for a reader that never came, in a case that failed before dpkg-deb ran).
    func end(_ apt: APTTestRoot) async {
        try? "".write(toFile: apt.root + "/kill/feed-rest", atomically: true, encoding: .utf8)
        if await eventually(timeout: .seconds(10), { feeder.poll() != nil }) { return }
        kill(feeder.pid, SIGKILL)
        _ = await eventually(timeout: .seconds(10)) { feeder.poll() != nil }
    }

    /// The `dpkg-deb` whose parent is dpkg and whose command line names `deb`, this test's own
    /// (apt names it `REPO/./NAME`; another test's lab may unpack a file of the same name at the
    /// same moment).
    private static func dpkgDeb(reading deb: String) -> pid_t? {
        let wanted = URL(fileURLWithPath: deb).standardizedFileURL.path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).first { pid in
            guard command(of: pid) == "dpkg-deb",
                  let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  line.split(separator: 0).contains(where: {
                      URL(fileURLWithPath: String(decoding: $0, as: UTF8.self)).standardizedFileURL.path == wanted
                  }),
                  let fields = ProcessStat.fields(in: "/proc/\(pid)") else { return false }
            return fields.count > 1 && pid_t(fields[1]).map { command(of: $0) == "dpkg" } == true
        }
    }

    private static func command(of pid: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    private static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
