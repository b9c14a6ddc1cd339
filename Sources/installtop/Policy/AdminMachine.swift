import Glibc
import RestartScan

/// This machine as a night's reboot step sees it: the one a patch night never reboots, since
/// the night itself runs here.
enum AdminMachine {
    /// This machine's boot id (`/proc/sys/kernel/random/boot_id`); `nil` when it cannot be read.
    static func bootID() -> String? { ProcFS().bootID() }

    /// Why `host` (the name ssh is given) whose boot id is `hostBootID` is this machine, or
    /// `nil` when it is another: its boot id is this machine's (one kernel, whatever the
    /// name), or its name resolves to an address of this machine's interfaces or loopback.
    static func sameness(host: String, hostBootID: String, ownBootID: String?) -> String? {
        if let ownBootID, ownBootID == hostBootID { return "its boot id, \(hostBootID), is this machine's" }
        let own = localAddresses()
        if let address = addresses(of: host).first(where: { own.contains($0) || $0 == "127.0.0.1" || $0 == "::1" || $0.hasPrefix("127.") }) {
            return "its name resolves to \(address), an address of this machine"
        }
        return nil
    }

    /// The numeric addresses `name` resolves to here; none when it does not resolve (an ssh
    /// alias of the operator's configuration, which then only the boot id tells apart).
    static func addresses(of name: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr, let text = numeric(address, length: current.pointee.ai_addrlen) { found.append(text) }
            entry = current.pointee.ai_next
        }
        return found
    }

    /// The addresses of this machine's interfaces, as `getifaddrs` lists them.
    static func localAddresses() -> Set<String> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var found = Set<String>()
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            if let address = current.pointee.ifa_addr {
                let length = address.pointee.sa_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
                if let text = numeric(address, length: socklen_t(length)) { found.insert(text) }
            }
            entry = current.pointee.ifa_next
        }
        return found
    }

    /// An IPv4 or IPv6 address as text; `nil` for other families.
    private static func numeric(_ address: UnsafeMutablePointer<sockaddr>, length: socklen_t) -> String? {
        let family = Int32(address.pointee.sa_family)
        guard family == AF_INET || family == AF_INET6 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        // A scoped IPv6 address (fe80::1%eth0) is compared without its scope.
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "%").first.map(String.init)
    }
}
