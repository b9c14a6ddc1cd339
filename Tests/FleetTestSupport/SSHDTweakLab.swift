import APTTestSupport
import Foundation

/// A private apt root for a namespace test host (issue 57's "a host whose upgrade breaks its
/// sshd configuration") with one package, `lab-sshd-tweak`, whose maintainer scripts reach that
/// host's sshd as openssh-server's reach the machine's: 2.0's postinst writes a drop-in sshd
/// rejects into the host's drop-in folder and restarts sshd (which then fails to start: no
/// listener, no new login); 1.0's postinst, which the revert runs, removes the drop-in and
/// restarts sshd, so logins work again. The folder also holds the history, its kept versions
/// and an empty checks folder. `remove()` deletes it all.
///
/// Shared by the end-to-end targets: `CommitConfirmedSSHTests` runs the armed upgrade on the
/// host over ssh, `BrokenSSHDConfirmEndToEndTests` has the host's own engine run it for a
/// rollout from the controller.
///
/// The scripts write only into the fleet's run folder (the hosts share this machine's
/// filesystem: never /etc), and restart sshd only inside the host's network namespace: run
/// anywhere else (apt in the test process) they fail rather than touch another sshd.
public final class SSHDTweakLab {
    /// The package's name.
    public static let package = "lab-sshd-tweak"
    /// The line 2.0 drops in: a keyword sshd does not know, which it rejects.
    public static let badLine = "LabSSHDTweak yes"

    public let apt: APTTestRoot
    /// The lab's own folder under the temporary directory: the root, the history, the checks.
    public let folder: String
    /// The history database the armed run is recorded in (`--history-db`).
    public let database: String
    /// `--checks-dir`: an empty folder, so that the machine's /etc/installtop/confirm.d never
    /// counts.
    public let checksFolder: String
    /// The host's sshd, which the scripts restart.
    public let sshd: FleetHostSSHD
    /// `readlink /proc/self/ns/net` in the host: where the scripts may restart sshd.
    private let networkNamespace: String
    /// The drop-in 2.0 writes and 1.0 removes.
    public var dropIn: String { sshd.dropInFolder + "/50-\(Self.package).conf" }
    /// `--apt-config … --history-db …`, for any `installtop` command of this lab.
    public var arguments: [String] { ["--apt-config", apt.configuration, "--history-db", database] }

    /// - Parameters:
    ///   - sshd: the host's sshd (`FleetTestHosts.sshd(host:)`).
    ///   - networkNamespace: the host's network namespace as `readlink /proc/self/ns/net` says
    ///     it there (`net:[…]`): the scripts restart sshd only when they run in it.
    public init(sshd: FleetHostSSHD, networkNamespace: String) throws {
        folder = FileManager.default.temporaryDirectory.path + "/installtop-sshd-lab-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        do {
            apt = try APTTestRoot(folder: folder + "/apt")
            checksFolder = folder + "/checks"
            try FileManager.default.createDirectory(atPath: checksFolder, withIntermediateDirectories: true)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        database = folder + "/state/history.sqlite3"
        self.sshd = sshd
        self.networkNamespace = networkNamespace
    }

    /// Deletes the root, the history and the folder.
    public func remove() {
        apt.remove()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// 1.0 published and installed (its postinst finds no drop-in and leaves sshd alone, so it
    /// may run here, outside the host), then 2.0 published: `apt upgrade` would take it.
    public func installVersionOneThenPublishTwo() throws {
        try apt.publish([package("1.0")])
        try apt.aptGet(["install", "-y", Self.package], check: true)
        try apt.aptGet(["clean"], check: true)
        try apt.publish([package("2.0")])
    }

    /// The package at `version`: 2.0 breaks sshd's configuration, 1.0 mends it.
    public func package(_ version: String) -> TestPackage {
        let postinst = version == "1.0"
            ? """
              if [ -e \(Self.quoted(dropIn)) ]; then
                rm -f \(Self.quoted(dropIn))
              \(restartSSHD)
              fi
              """
            : """
              printf '%s\\n' '# \(Self.package) \(version)' \(Self.quoted(Self.badLine)) > \(Self.quoted(dropIn))
              \(restartSSHD)
              """
        return TestPackage(name: Self.package, version: version, postinst: postinst,
                           files: ["/usr/share/\(Self.package)/version": "\(version)\n"])
    }

    /// What openssh-server's postinst does through its service manager, by hand: the running
    /// listener stopped by its pid file and waited for (as `start-stop-daemon --stop --retry`),
    /// then sshd started with its configuration. A start that fails (the bad drop-in) does not
    /// fail the script, as debhelper's `deb-systemd-invoke restart … || true` does not: the
    /// upgrade succeeds and leaves the host without sshd. The wait polls with a deadline; a
    /// zombie counts as gone (the harness that started the first listener reaps it later).
    private var restartSSHD: String {
        let pidFile = Self.quoted(sshd.pidFile)
        return """
            if [ "$(readlink /proc/self/ns/net)" != \(Self.quoted(networkNamespace)) ]; then
              echo "\(Self.package): not in the test host's network namespace: its sshd is left alone" >&2
              exit 1
            fi
            if [ -s \(pidFile) ]; then
              pid=$(cat \(pidFile))
              kill -TERM "$pid" 2>/dev/null || true
              polls=0
              while [ -d "/proc/$pid" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null; do
                polls=$((polls + 1))
                if [ "$polls" -gt 3000 ]; then echo "\(Self.package): sshd $pid did not stop" >&2; exit 1; fi
                sleep 0.01
              done
            fi
            if \(sshd.startCommand.map(Self.quoted).joined(separator: " ")); then
              echo "\(Self.package): sshd restarted"
            else
              echo "\(Self.package): sshd did not start again (exit status $?)" >&2
            fi
            """
    }

    /// dpkg's `STATUS VERSION` (`ii 1.0`) of each package in the root.
    public func states() throws -> [String: String] {
        try apt.states().mapValues { "\($0.status) \($0.version)" }
    }

    /// `text` quoted for /bin/sh.
    public static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
