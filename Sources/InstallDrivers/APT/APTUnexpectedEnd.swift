import Glibc
import InstallEngine

/// What ended an apt transaction that installtop did not stop (rule 25a): apt-get killed by a
/// signal, or dpkg killed by one as apt-get reported it before it exits 100 (apt 2.6: `E:
/// Sub-process /usr/bin/dpkg exited unexpectedly` for any signal but SIGSEGV, which it names;
/// `received signal N.` where apt waits for it as for its other helpers). installtop sends
/// apt-get no signal but SIGINT (a graceful stop), and dpkg none at all but in a forced stop,
/// which its runner records: so a signal's end with no forced stop of installtop's came from
/// outside (`kill -9`, the OOM killer), but for apt-get's end by that SIGINT. apt catches it
/// only while dpkg runs; between two dpkg runs and after its last one (its `DPkg::Post-Invoke`
/// hooks: needrestart's, apt-listchanges') SIGINT ends apt-get, and that end is the stop's.
/// A failure of apt's own (a maintainer script that fails) is none of these.
struct APTUnexpectedEnd: Sendable, Hashable {
    /// The program that died: `apt-get` or `dpkg`.
    var program: String
    /// `nil` when apt-get did not say which (`exited unexpectedly`).
    var signal: Int32?
    /// Where dpkg was when it ended: `lab-k2's postinst` (the maintainer script that was still
    /// running), `while dpkg was configuring lab-k2` (apt's last phase of it, when the script had
    /// gone too); `nil` when apt was on no package.
    var place: String?

    /// `nil` when apt-get did not end by a signal and reported no death of dpkg's (`dpkgDeath`),
    /// or ended by the SIGINT installtop sent it for a stop (`stopSent`). apt-get's own death
    /// comes first: when both died, dpkg's was not seen by apt.
    init?(outcome: UpdateRunOutcome, dpkgDeath: APTUnexpectedEnd?, stopSent: Bool) {
        if case .signaled(let signal) = outcome {
            if signal == SIGINT, stopSent { return nil }
            self.init(program: "apt-get", signal: signal)
        } else if let dpkgDeath {
            self = dpkgDeath
        } else {
            return nil
        }
    }

    init(program: String, signal: Int32?, place: String? = nil) {
        self.program = program
        self.signal = signal
        self.place = place
    }

    /// `apt-get was killed by signal 9 (Killed) during lab-k2's postinst`, `dpkg was killed by a
    /// signal while dpkg was configuring lab-k2`: what the summary says ended the transaction.
    var sentence: String {
        "\(program) was " + (signal.map { UpdateRunOutcome.signaled($0).summary } ?? "killed by a signal") + (place.map { " " + $0 } ?? "")
    }

    /// The place of a maintainer script dpkg was running (`DPKG_MAINTSCRIPT_PACKAGE`,
    /// `DPKG_MAINTSCRIPT_NAME`): `during lab-k2's postinst`.
    static func during(script name: String, of package: String) -> String {
        "during \(package)'s \(name)"
    }

    /// The place from apt's last phase of the package dpkg was on: `while dpkg was configuring
    /// lab-k2`.
    static func whileDpkg(_ phase: APTPackagePhase, _ package: String) -> String {
        "while dpkg was \(phase.word) \(package)"
    }

    /// dpkg's death as apt-get reports it, when PATH is a dpkg (its last component `dpkg`):
    /// `Sub-process PATH exited unexpectedly` (no signal said), `… received a segmentation
    /// fault.` (SIGSEGV), `… received signal N.`; `nil` for any other line (`returned an error
    /// code (1)` is dpkg's own failure).
    static func dpkgDeath(in line: String) -> APTUnexpectedEnd? {
        let text = line.hasPrefix("E: ") ? line.dropFirst(3) : Substring(line)
        guard text.hasPrefix("Sub-process ") else { return nil }
        let rest = text.dropFirst("Sub-process ".count)
        guard let blank = rest.firstIndex(of: " "), rest[..<blank].split(separator: "/").last == "dpkg" else { return nil }
        let words = rest[rest.index(after: blank)...]
        if words.hasPrefix("exited unexpectedly") { return APTUnexpectedEnd(program: "dpkg", signal: nil) }
        if words.hasPrefix("received a segmentation fault") { return APTUnexpectedEnd(program: "dpkg", signal: SIGSEGV) }
        guard words.hasPrefix("received signal "),
              let signal = Int32(words.dropFirst("received signal ".count).prefix { $0.isASCII && $0.isNumber }) else { return nil }
        return APTUnexpectedEnd(program: "dpkg", signal: signal)
    }
}
