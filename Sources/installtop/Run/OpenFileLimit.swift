import Glibc

/// The number of file descriptors installtop may have open.
enum OpenFileLimit {
    /// Raises the soft limit to the hard one: each running update holds four descriptors (three
    /// pipes and a pidfd), so `--concurrency 1000` needs more than the usual soft limit of 1,024.
    /// Children inherit the raised soft limit (posix_spawn cannot lower it for them); a program
    /// that cannot use descriptors above 1,023 only meets them if it opens that many itself.
    static func raise() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
