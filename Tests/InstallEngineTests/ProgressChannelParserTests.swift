import InstallEngine
import Testing

@Suite("ProgressChannelParser: one line of fd 3 to one report")
struct ProgressChannelParserTests {
    private static let table: [(line: String, expected: UpdateReport?)] = [
        // progress
        ("progress 42", .progress(percent: 42, message: nil)),
        ("progress 0", .progress(percent: 0, message: nil)),
        ("progress 100", .progress(percent: 100, message: nil)),
        ("progress 42.5", .progress(percent: 42.5, message: nil)),
        ("progress 7.", .progress(percent: 7, message: nil)),
        ("progress .5", .progress(percent: 0.5, message: nil)),
        ("progress 007", .progress(percent: 7, message: nil)),
        ("progress 33.333333333333333333", .progress(percent: 33.333333333333333333, message: nil)),
        ("progress 12 Unpacking files", .progress(percent: 12, message: "Unpacking files")),
        ("progress\t12\tUnpacking  files  ", .progress(percent: 12, message: "Unpacking  files")),
        ("progress 12   ", .progress(percent: 12, message: nil)),
        ("progress 50 50% done: step 2/4", .progress(percent: 50, message: "50% done: step 2/4")),
        ("progress 50\r", .progress(percent: 50, message: nil)),
        ("progress 50 text\r\r", .progress(percent: 50, message: "text")),
        ("  progress 50", .progress(percent: 50, message: nil)),
        ("progress 100.0001", .malformedChannelLine),
        ("progress 101", .malformedChannelLine),
        ("progress -1", .malformedChannelLine),
        ("progress +5", .malformedChannelLine),
        ("progress 1e2", .malformedChannelLine),
        ("progress nan", .malformedChannelLine),
        ("progress 4.2.1", .malformedChannelLine),
        ("progress .", .malformedChannelLine),
        ("progress 50%", .malformedChannelLine),
        ("progress", .malformedChannelLine),
        ("progress ", .malformedChannelLine),
        ("progressive 5", .malformedChannelLine),
        ("Progress 5", .malformedChannelLine),
        // message, error, reboot-required
        ("message Configuring openssl", .message("Configuring openssl")),
        ("message   spaced out  ", .message("spaced out")),
        ("message", .malformedChannelLine),
        ("message    ", .malformedChannelLine),
        ("messages are fun", .malformedChannelLine),
        ("error disk full: 0 bytes left", .error("disk full: 0 bytes left")),
        ("error", .error("unspecified error")),
        ("reboot-required", .rebootRequired),
        ("reboot-required  \r", .rebootRequired),
        ("reboot-required now", .malformedChannelLine),
        // APT status lines
        ("pmstatus:openssl:42.8571:Unpacking openssl (3.0.11-1)", .progress(percent: 42.8571, message: "Unpacking openssl (3.0.11-1)")),
        ("pmstatus:libc6:amd64:10.0000:Preparing libc6:amd64", .progress(percent: 10, message: "Preparing libc6:amd64")),
        ("pmstatus:dpkg-exec:0.0000:Running dpkg", .progress(percent: 0, message: "Running dpkg")),
        ("pmstatus:openssl:100", .progress(percent: 100, message: nil)),
        ("pmstatus:openssl:55:", .progress(percent: 55, message: nil)),
        ("pmstatus:openssl:66.6667:Installed openssl (3.0.11-1)\r", .progress(percent: 66.6667, message: "Installed openssl (3.0.11-1)")),
        ("dlstatus:3:12.5:Retrieving file 3 of 8", .progress(percent: 12.5, message: "Retrieving file 3 of 8")),
        ("dlstatus:1:0.0000:Retrieving file 1 of 2 (10s remaining)", .progress(percent: 0, message: "Retrieving file 1 of 2 (10s remaining)")),
        ("pmerror:/var/cache/apt/archives/foo_1.0_all.deb:20.0000:trying to overwrite '/usr/bin/foo', which is also in package bar 1.0",
         .error("/var/cache/apt/archives/foo_1.0_all.deb: trying to overwrite '/usr/bin/foo', which is also in package bar 1.0")),
        ("pmerror:libfoo1:amd64:50:subprocess returned error exit status 1", .error("libfoo1:amd64: subprocess returned error exit status 1")),
        ("pmerror:libfoo1:50", .error("libfoo1: dpkg reported an error")),
        ("pmconffile:openssh-server:75.0000:'/etc/ssh/sshd_config' '/etc/ssh/sshd_config.dpkg-new' 1 1",
         .message("openssh-server: dpkg asks whether to keep configuration file /etc/ssh/sshd_config or install the package's version /etc/ssh/sshd_config.dpkg-new")),
        ("pmconffile:foo:amd64:75:unexpected detail", .message("foo:amd64: dpkg asks about a configuration file: unexpected detail")),
        ("pmconffile:foo:75", .message("foo: dpkg asks about a configuration file")),
        ("pmstatus:openssl:250:Unpacking", .malformedChannelLine),
        ("pmstatus:openssl:Unpacking", .malformedChannelLine),
        ("pmstatus:42", .malformedChannelLine),
        ("pmstatus:", .malformedChannelLine),
        ("dlstatus", .malformedChannelLine),
        ("media-change: cdrom:/dev/sr0:label", .malformedChannelLine),
        // everything else
        ("hello world", .malformedChannelLine),
        ("\u{1B}[31mprogress 5", .malformedChannelLine),
        ("", nil),
        ("\r", nil),
        ("   \t ", nil),
    ]

    @Test(arguments: table.indices)
    func parsesTheLine(_ index: Int) {
        let (line, expected) = Self.table[index]
        #expect(ProgressChannelParser.parse(line) == expected, "line: \(line.debugDescription)")
    }

    @Test func rawBytesGiveTheSameReportAsText() {
        let bytes: [UInt8] = Array("progress 64 Unpacking".utf8)
        let report = bytes.withUnsafeBytes { ProgressChannelParser.parse($0) }
        #expect(report == .progress(percent: 64, message: "Unpacking"))
    }

    @Test func invalidUTF8InATextBecomesReplacementCharacters() {
        let bytes: [UInt8] = Array("message caf".utf8) + [0xFF] + Array(" ok".utf8)
        let report = bytes.withUnsafeBytes { ProgressChannelParser.parse($0) }
        #expect(report == .message("caf\u{FFFD} ok"))
    }

    @Test func anInvalidByteInsteadOfThePercentIsMalformed() {
        let bytes: [UInt8] = Array("progress 4".utf8) + [0xC3]
        #expect(bytes.withUnsafeBytes { ProgressChannelParser.parse($0) } == .malformedChannelLine)
    }
}
