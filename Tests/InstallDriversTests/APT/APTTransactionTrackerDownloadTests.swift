import InstallDrivers
import InstallEngine
import Testing

/// `dlstatus:N` lines, which stand for files 1…N-1 too (done once file N is fetched), and how a
/// line is cut into kind, subject, percent and text: the tracker remembers how far downloads
/// were marked instead of walking them all again, and these pin the events that must give.
@Suite("apt: following downloads and reading Status-Fd lines")
struct APTTransactionTrackerDownloadTests {
    private let names = ["pkg-a", "pkg-b", "pkg-c", "pkg-d", "pkg-e"]

    private func tracker(plan planned: [String]? = nil, downloads: [String]? = nil) -> APTTransactionTracker {
        let plan = (planned ?? names).map { PackageChange(package: $0, action: .install, newVersion: "1.0") }
        let files = (downloads ?? names).map { APTDownload(uri: "file:/r/\($0)_1.0_all.deb", fileName: "\($0)_1.0_all.deb", package: $0, size: 1) }
        return APTTransactionTracker(plan: plan, downloads: files)
    }

    /// The position of `package` in the default plan.
    private func at(_ package: String) -> Int { names.firstIndex(of: package)! }

    private func downloading(_ package: String) -> APTStatusEvent {
        .reached(position: at(package), phase: .downloading, word: "downloading", jobPercent: nil)
    }

    private func downloaded(_ package: String) -> APTStatusEvent {
        .reached(position: at(package), phase: .downloaded, word: "downloaded", jobPercent: nil)
    }

    @Test("A jump from file 1 to file 4 marks files 1–3 downloaded in order, then starts file 4")
    func jump() {
        var tracker = tracker()
        #expect(tracker.consume("dlstatus:1:0.0000:Retrieving file 1 of 5") == [downloading("pkg-a")])
        #expect(tracker.consume("dlstatus:4:30.0000:Retrieving file 4 of 5") == [
            downloaded("pkg-a"), downloaded("pkg-b"), downloaded("pkg-c"), downloading("pkg-d"),
        ])
        #expect(tracker.phase(of: "pkg-e") == nil)
    }

    @Test("A file announced again, or an earlier one after a later one, changes nothing")
    func repeatedAndEarlier() {
        var tracker = tracker()
        _ = tracker.consume("dlstatus:3:20.0000:Retrieving file 3 of 5")
        #expect(tracker.consume("dlstatus:3:25.0000:Retrieving file 3 of 5").isEmpty)
        #expect(tracker.consume("dlstatus:2:25.0000:Retrieving file 2 of 5").isEmpty)
        #expect(tracker.phase(of: "pkg-b") == .downloaded)
        #expect(tracker.phase(of: "pkg-c") == .downloading)
        #expect(tracker.consume("dlstatus:4:30.0000:Retrieving file 4 of 5") == [
            downloaded("pkg-c"), downloading("pkg-d"),
        ])
        #expect(tracker.ignoredLines == 0)
    }

    @Test("Files of packages outside the plan, of a failed package, or of one dpkg already works on give no events")
    func skipped() {
        var tracker = tracker(plan: ["pkg-a", "pkg-c", "pkg-d"])
        _ = tracker.consume("pmerror:pkg-c:amd64:1.0000:broken before its download")
        _ = tracker.consume("pmstatus:pkg-d:2.0000:Unpacking pkg-d (all)")
        #expect(tracker.consume("dlstatus:5:40.0000:Retrieving file 5 of 5") == [downloaded("pkg-a")])
        #expect(tracker.phase(of: "pkg-d") == .unpacking, "a download never moves a package back")
        #expect(tracker.consume("dlstatus:6:40.0000:Retrieving file 6 of 5").isEmpty)
        #expect(tracker.ignoredLines == 1, "a file beyond the list is ignored")
    }

    @Test("A package with two files: its second file does not move it back to downloading")
    func twoFiles() {
        var tracker = tracker(plan: ["pkg-a", "pkg-b"], downloads: ["pkg-a", "pkg-b", "pkg-a"])
        _ = tracker.consume("dlstatus:2:10.0000:Retrieving file 2 of 3")
        #expect(tracker.consume("dlstatus:3:20.0000:Retrieving file 3 of 3") == [downloaded("pkg-b")])
        #expect(tracker.phase(of: "pkg-a") == .downloaded)
    }

    @Test("The subject may hold `:` and so may the text; the percent is the first number after the subject's first field")
    func fields() {
        var tracker = tracker()
        #expect(tracker.consume("pmerror:pkg-a:amd64:12.5000:error: it: failed") == [.ended(position: at("pkg-a"), failure: "error: it: failed")])
        #expect(tracker.jobPercent == 12.5)
        #expect(tracker.consume("pmstatus:pkg-b:20:Preparing pkg-b") == [
            .reached(position: at("pkg-b"), phase: .preparing, word: "preparing", jobPercent: 20),
        ])
        #expect(tracker.consume("pmconffile:/etc/ünïcode:conf:30:kept: 'old' 'new'") == [
            .note(position: at("pkg-b"), "configuration file /etc/ünïcode:conf kept (kept: 'old' 'new')"),
        ])
        #expect(tracker.consume("pmstatus:pkg-b:25").isEmpty, "no text: no phase")
        #expect(tracker.ignoredLines == 0)
    }

    @Test("Lines without a percent in range are counted as ignored", arguments: [
        "garbage", "pmstatus", "pmstatus:pkg-a", "pmstatus:pkg-a:Preparing", "pmstatus:pkg-a:x:y:z",
        "pmstatus:pkg-a:200:Preparing pkg-a", "pmstatus:pkg-a:nan:Preparing pkg-a", "pmstatus:pkg-a:-1:Preparing pkg-a",
        "pmstatus:pkg-a::Preparing pkg-a", "unknown:pkg-a:10:Preparing pkg-a", "dlstatus:x:10:Retrieving", "dlstatus:0:10:Retrieving",
    ])
    func ignored(line: String) {
        var tracker = tracker()
        #expect(tracker.consume(line).isEmpty)
        #expect(tracker.ignoredLines == 1)
    }
}
