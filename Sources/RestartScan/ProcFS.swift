import TextBasics
/// The one reader of `/proc` (a live host's, or a recorded copy in tests): each process's
/// `stat`, `status`, `cmdline`, `comm`, `cgroup`, `exe` and `maps`, the process list, and the
/// boot's `btime` and id. Every other part of installtop that asks the kernel about a process
/// asks here, so each file is parsed one way.
///
/// Nothing here waits or throws: a file that cannot be read (the process vanished, was never
/// there, or hides its files from this user) reads as `nil` or empty. A pid read here may exit
/// and be reused before the caller acts on it; `ProcessStat.startTicks` tells the two apart.
public struct ProcFS: Sendable {
    /// Where `/proc` is.
    public var root: String

    /// The `/proc` at `root`: this host's by default.
    public init(root: String = "/proc") {
        self.root = root
    }

    /// The pids of the processes there now (the numeric folder names), in no order. A process
    /// may have exited by the time one of its files is read.
    public func pids() -> [Int32] {
        FileMetadata.entries(of: root).compactMap { Int32($0) }
    }

    /// The folder of process `pid`.
    public func folder(of pid: Int32) -> String {
        root + "/" + String(pid)
    }

    /// `pid`'s `stat`; `nil` when it is gone (or its text is not of `stat`'s shape).
    public func stat(of pid: Int32) -> ProcessStat? {
        FileMetadata.text(folder(of: pid) + "/stat").flatMap { ProcessStat($0) }
    }

    /// `pid`'s `status`; `nil` when it is gone.
    public func status(of pid: Int32) -> ProcessStatus? {
        FileMetadata.text(folder(of: pid) + "/status").map { ProcessStatus($0) }
    }

    /// The reading process's own `status` (`/proc/self`); `nil` when `/proc` is missing.
    public func ownStatus() -> ProcessStatus? {
        FileMetadata.text(root + "/self/status").map { ProcessStatus($0) }
    }

    /// `pid`'s argument vector (`cmdline`); empty for a kernel thread, a zombie or a process gone.
    public func commandLine(of pid: Int32) -> [String] {
        (FileMetadata.text(folder(of: pid) + "/cmdline") ?? "").split(separator: "\0").map(String.init)
    }

    /// The value of the environment variable `name` that `pid` started with (`environ`);
    /// `nil` when it has none, is gone, or its environment is not this user's to read (another
    /// user's process, unless root).
    public func environmentVariable(_ name: String, of pid: Int32) -> String? {
        guard let text = FileMetadata.text(folder(of: pid) + "/environ") else { return nil }
        let prefix = name + "="
        return text.split(separator: "\0").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// `pid`'s `comm` (the name `stat` shows in parentheses), without the kernel's newline;
    /// `nil` when it is gone.
    public func command(of pid: Int32) -> String? {
        guard var text = FileMetadata.text(folder(of: pid) + "/comm") else { return nil }
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The text of `pid`'s `cgroup` (`ProcessOwner(cgroupFile:)` reads it); `nil` when it is gone.
    public func cgroup(of pid: Int32) -> String? {
        FileMetadata.text(folder(of: pid) + "/cgroup")
    }

    /// Where `pid`'s `exe` link leads (with the kernel's ` (deleted)` when the file is gone);
    /// `nil` when it is gone, a kernel thread, or not this user's to read.
    public func executable(of pid: Int32) -> String? {
        try? FileMetadata.link(folder(of: pid) + "/exe").get()
    }

    /// The reading process's own executable (`/proc/self/exe`); `nil` when `/proc` is missing.
    public func ownExecutable() -> String? {
        try? FileMetadata.link(root + "/self/exe").get()
    }

    /// Where `pid`'s open file descriptors lead (the targets of its `fd` links), in no order;
    /// empty when it is gone or not this user's to read.
    public func openFiles(of pid: Int32) -> [String] {
        let folder = folder(of: pid) + "/fd"
        return FileMetadata.entries(of: folder).compactMap { try? FileMetadata.link(folder + "/" + $0).get() }
    }

    /// The processes whose parent is `pid`, from every process's `stat`.
    public func children(of pid: Int32) -> [Int32] {
        pids().filter { stat(of: $0)?.parent == pid }
    }

    /// When the machine booted, in seconds since 1970 (`btime` of `/proc/stat`); `nil` when
    /// there is none.
    public func bootTime() -> Int? {
        guard let line = FileMetadata.text(root + "/stat")?.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }) else {
            return nil
        }
        return Int(line.dropFirst("btime ".count).trimmingWhitespace())
    }

    /// This boot's id (`sys/kernel/random/boot_id`); `nil` when missing or empty.
    public func bootID() -> String? {
        let text = FileMetadata.text(root + "/sys/kernel/random/boot_id")?.trimmingWhitespace()
        return text?.isEmpty == false ? text : nil
    }

    /// `pid`'s `maps` into `buffer`, or the `errno` that refused it (`meansGone` when the
    /// process exited).
    func maps(of pid: Int32, into buffer: inout [UInt8]) -> Errno? {
        FileMetadata.contents(folder(of: pid) + "/maps", into: &buffer)
    }
}
