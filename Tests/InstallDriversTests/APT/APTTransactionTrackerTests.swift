import APTTestSupport
import Foundation
@testable import InstallDrivers
import InstallEngine
import Testing

/// apt's Status-Fd lines as per-package events (`APTStatusEvent`).
@Suite("apt: following a transaction")
struct APTTransactionTrackerTests {
    private let plan = [
        PackageChange(package: "lab-base", action: .install, newVersion: "1.0"),
        PackageChange(package: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
    ]
    private let downloads = [
        APTDownload(uri: "file:/r/lab-base_1.0_all.deb", fileName: "lab-base_1.0_all.deb", package: "lab-base", size: 5242),
        APTDownload(uri: "file:/r/lab-app_2.0_all.deb", fileName: "lab-app_2.0_all.deb", package: "lab-app", size: 6000),
    ]

    /// The percents `events` give the package at `position`, in order.
    private func percents(_ events: [APTStatusEvent], at position: Int) -> [Double] {
        events.compactMap {
            guard case .reached(position, let phase, _, _) = $0 else { return nil }
            return phase.percent
        }
    }

    /// The packages `events` end, with their failure (`nil`: done).
    private func ends(_ events: [APTStatusEvent]) -> [(position: Int, failure: String?)] {
        events.compactMap {
            guard case .ended(let position, let failure) = $0 else { return nil }
            return (position, failure)
        }
    }

    @Test("downloads, then dpkg's phases: each package's bar only rises, Installed is its end, apt's figure rides dpkg's lines")
    func cleanInstall() {
        var tracker = APTTransactionTracker(plan: plan, downloads: downloads)
        let lines = [
            "dlstatus:1:0.0000:Retrieving file 1 of 2",
            "dlstatus:2:50.0000:Retrieving file 2 of 2",
            "pmstatus:dpkg-exec:0.0000:Running dpkg",
            "pmstatus:lab-base:0.0000:Preparing lab-base (amd64)",
            "pmstatus:lab-base:5.8824:Unpacking lab-base (amd64)",
            "pmstatus:lab-base:52.9412:Configuring lab-base (amd64)",
            "pmstatus:lab-base:58.8235:Installed lab-base (amd64)",
            "pmstatus:lab-app:60.0000:Preparing lab-app (amd64)",
            "pmstatus:lab-app:70.0000:Unpacking lab-app (amd64)",
            "pmconffile:/etc/lab-app.conf:75.0000:'/r/etc/lab-app.conf' '/r/etc/lab-app.conf.dpkg-new' 1 1",
            "pmstatus:lab-app:80.0000:Configuring lab-app (amd64)",
            "pmstatus:lab-app:94.1176:Installed lab-app (amd64)",
        ]
        let events = lines.flatMap { tracker.consume($0) }
        #expect(percents(events, at: 0) == [10, 20, 30, 50, 80, 100])
        #expect(percents(events, at: 1) == [10, 30, 50, 80, 100])
        #expect(ends(events).map(\.position) == [0, 1])
        #expect(ends(events).allSatisfy { $0.failure == nil })
        #expect(events.last == .ended(position: 1, failure: nil))
        #expect(events.contains(.note(position: 1, "configuration file /etc/lab-app.conf kept ('/r/etc/lab-app.conf' '/r/etc/lab-app.conf.dpkg-new' 1 1)")))
        #expect(events.contains(.reached(position: 0, phase: .unpacking, word: "unpacking", jobPercent: 5.8824)))
        #expect(events.contains(.reached(position: 0, phase: .downloaded, word: "downloaded", jobPercent: nil)), "a download carries no job figure")
        #expect(tracker.jobPercent == 94.1176)
        #expect(tracker.ignoredLines == 0)
        #expect(tracker.inFlight.isEmpty)
    }

    @Test("pmerror fails the package with apt's words, also for names with an architecture; dependants fail with theirs")
    func failures() {
        var tracker = APTTransactionTracker(plan: plan, downloads: downloads)
        _ = tracker.consume("pmstatus:lab-base:52.9412:Configuring lab-base (amd64)")
        #expect(tracker.inFlight == ["lab-base"])
        let failed = tracker.consume("pmerror:lab-base:amd64:52.9412:installed lab-base package post-installation script subprocess returned error exit status 1")
        #expect(failed == [.ended(position: 0, failure: "installed lab-base package post-installation script subprocess returned error exit status 1")])
        #expect(tracker.consume("pmstatus:lab-base:60:Installed lab-base (amd64)").isEmpty, "a failed package stays failed")
        let dependant = tracker.consume("pmerror:lab-app:60.0000:dependency problems - leaving unconfigured")
        #expect(dependant == [.ended(position: 1, failure: "dependency problems - leaving unconfigured")])
        #expect(tracker.phase(of: "lab-app") == .preparing, "failed before any phase: begun")
        #expect(tracker.inFlight.isEmpty)
    }

    @Test("removals, lines about other packages and broken lines")
    func removalsAndNoise() {
        var tracker = APTTransactionTracker(plan: [PackageChange(package: "telnet", action: .remove, oldVersion: "0.17")], downloads: [])
        let events = ["pmstatus:telnet:0:Preparing for removal of telnet", "pmstatus:telnet:50:Removing telnet",
                      "pmstatus:telnet:100:Removed telnet"].flatMap { tracker.consume($0) }
        #expect(percents(events, at: 0) == [30, 50, 100])
        #expect(events.last == .ended(position: 0, failure: nil))
        #expect(tracker.consume("pmstatus:other:10:Unpacking other").isEmpty)
        #expect(tracker.consume("dlstatus:7:10:Retrieving file 7 of 1").isEmpty)
        #expect(tracker.consume("garbage").isEmpty)
        #expect(tracker.consume("pmstatus:telnet:200:Removed telnet").isEmpty)
        #expect(tracker.ignoredLines == 3)
    }

    @Test("the percent is a plain decimal, as the progress channel reads it: 1e2, -0 and nan are not percents")
    func percentIsPlainDecimal() {
        var tracker = APTTransactionTracker(plan: [PackageChange(package: "telnet", action: .remove, oldVersion: "0.17")], downloads: [])
        // apt writes its percent in fixed notation; a field that reads as a number only to
        // Double (an exponent, a sign, nan) is part of the subject, and without another number
        // the line is broken, to the tracker as to the channel.
        for line in ["pmstatus:telnet:1e2:Removed telnet", "pmstatus:telnet:-0:Removing telnet", "pmstatus:telnet:nan:Removing telnet"] {
            #expect(tracker.consume(line).isEmpty, "\(line)")
            #expect(APTStatusLine.fields(of: line) == nil, "\(line)")
        }
        #expect(tracker.ignoredLines == 3)
        let fields = APTStatusLine.fields(of: "pmerror:libc6:amd64:12.5:subprocess: error")
        #expect(fields?.kind == "pmerror" && fields?.subject == "libc6:amd64" && fields?.percent == 12.5 && fields?.text == "subprocess: error")
        #expect(percents(tracker.consume("pmstatus:telnet:50:Removing telnet"), at: 0) == [50])
    }

    @Test("a purge ends with the word purged, a removal with removed (apt 2.6's lines for a purge)")
    func purgeWord() {
        var tracker = APTTransactionTracker(plan: [
            PackageChange(package: "lab-old", action: .purge, oldVersion: "1.0"), PackageChange(package: "telnet", action: .remove, oldVersion: "0.17"),
        ], downloads: [])
        let purge = ["pmstatus:lab-old:0.0000:Preparing for removal of lab-old (amd64)", "pmstatus:lab-old:20.0000:Removing lab-old (amd64)",
                     "pmstatus:lab-old:60.0000:Completely removing lab-old (amd64)", "pmstatus:lab-old:80.0000:Completely removed lab-old (amd64)",
        ].flatMap { tracker.consume($0) }
        let words = purge.compactMap { if case .reached(_, _, let word, _) = $0 { word } else { nil } }
        #expect(words == ["preparing for removal", "removing", "purged"], "\(words)")
        let removal = tracker.consume("pmstatus:telnet:90:Removed telnet")
        #expect(removal.contains { if case .reached(1, _, "removed", _) = $0 { true } else { false } }, "\(removal)")
    }

    @Test("a real install in a private root: every package of the plan ends succeeded from apt's own Status-Fd lines")
    func realTransaction() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base"), TestPackage(name: "lab-tool")])
        let arguments = ["-o", "APT::Immediate-Configure-All=1", "install", "lab-app", "lab-tool"]
        let plan = APTSimulation.plan(from: try apt.aptGet(["-s"] + arguments, check: true).stdout)
        let downloads = APTDownload.list(from: try apt.aptGet(["--print-uris", "-qq"] + arguments, check: true).stdout)
        let status = apt.root + "/../status-fd"
        let install = try TestCommand.check(
            ["/bin/sh", "-c", "exec /usr/bin/apt-get -y -o APT::Status-Fd=3 \"$@\" 3>\"$STATUS\"", "sh"] + arguments,
            environment: apt.environment.merging(["STATUS": status]) { $1 })
        var tracker = APTTransactionTracker(plan: plan, downloads: downloads)
        let lines = try String(contentsOfFile: status, encoding: .utf8).split(separator: "\n").map(String.init)
        let events = lines.flatMap { tracker.consume($0) }
        let succeeded = Set(ends(events).filter { $0.failure == nil }.map { plan[$0.position].package })
        #expect(succeeded == ["lab-base", "lab-app", "lab-tool"], "\(lines)\n\(install.stdout)")
        for position in plan.indices {
            #expect(percents(events, at: position) == percents(events, at: position).sorted(), "\(plan[position].package)'s bar went down")
        }
        #expect(tracker.ignoredLines == 0, "\(lines)")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty)
    }

    @Test("a preinst that fails while dpkg unpacks: apt names the archive, the tracker ends the package with apt's words")
    func failedUnpack() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-fail", preinst: "echo 'lab-fail: refusing' >&2; exit 1")])
        let arguments = ["install", "lab-fail"]
        let plan = APTSimulation.plan(from: try apt.aptGet(["-s"] + arguments, check: true).stdout)
        let downloads = APTDownload.list(from: try apt.aptGet(["--print-uris", "-qq"] + arguments, check: true).stdout)
        let status = apt.root + "/../status-fd"
        let install = try TestCommand.run(
            ["/bin/sh", "-c", "exec /usr/bin/apt-get -y -o APT::Status-Fd=3 \"$@\" 3>\"$STATUS\"", "sh"] + arguments,
            environment: apt.environment.merging(["STATUS": status]) { $1 })
        #expect(install.status != 0)
        var tracker = APTTransactionTracker(plan: plan, downloads: downloads)
        let lines = try String(contentsOfFile: status, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("pmerror:/") && $0.contains("lab-fail_1.0_all.deb") }, "apt names the archive: \(lines)")
        let failures = ends(lines.flatMap { tracker.consume($0) }).compactMap(\.failure)
        #expect(failures == ["new lab-fail package pre-installation script subprocess returned error exit status 1"], "\(lines)")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty)
    }

    @Test("an archive's name is its package's: in apt's cache, and as the numbered link of a long batch")
    func archiveNames() {
        #expect(APTTransactionTracker.packageName("/var/cache/apt/archives/lab-fail_1%3a2.0_all.deb") == "lab-fail")
        #expect(APTTransactionTracker.packageName("/tmp/apt-dpkg-install-Ab12/01-lab-b_1.0_all.deb") == "lab-b")
        #expect(APTTransactionTracker.packageName("/srv/debs/0ad-data_0.0.26-1_all.deb") == "0ad-data")
        #expect(APTTransactionTracker.packageName("libc6:amd64") == "libc6")
    }
}
