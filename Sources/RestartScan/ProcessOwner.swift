/// What would restart a process, read from its `/proc/PID/cgroup` (rule 32).
public enum ProcessOwner: Sendable, Hashable {
    /// A system service: `systemctl restart UNIT` restarts it.
    case service(unit: String)
    /// A service an init script started outside systemd (no unit's cgroup holds it), named by
    /// its pid file under `/run`: `/etc/init.d/NAME restart` restarts it.
    case initScript(name: String)
    /// A user's login session or user manager (`session-3.scope`, `user@1000.service`): the user
    /// restarts it, not a restart job.
    case session(name: String)
    /// A container (`docker-ID.scope`, `/docker/ID`, `/lxc/NAME`, `machine-NAME.scope`,
    /// kubepods): restarting it belongs to its runtime.
    case container(name: String)
    /// No service, session or container claims it: listed, never restarted or killed.
    case bare

    /// The owner named by the text of a `/proc/PID/cgroup` file: the cgroup v2 line (`0::PATH`)
    /// when there is one, else the v1 `name=systemd` line; `.bare` when neither names a service,
    /// session or container (the root cgroup, an empty or unparsable file).
    public init(cgroupFile text: String) {
        var unified: Substring?
        var systemd: Substring?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("0::") {
                unified = line.dropFirst(3)
            } else if let colon = line.firstIndex(of: ":") {
                let rest = line[line.index(after: colon)...]
                if rest.hasPrefix("name=systemd:") { systemd = rest.dropFirst("name=systemd:".count) }
            }
        }
        // On hybrid hosts the v2 hierarchy can hold nothing (`0::/`) while name=systemd holds the unit.
        let unifiedOwner = unified.map { Self(cgroupPath: $0) }
        if let unifiedOwner, unifiedOwner != .bare {
            self = unifiedOwner
        } else {
            self = systemd.map { Self(cgroupPath: $0) } ?? .bare
        }
    }

    /// The owner named by one cgroup path (`/system.slice/nginx.service`).
    public init(cgroupPath path: Substring) {
        let parts = path.split(separator: "/").map(String.init)
        if let container = Self.containerName(parts) {
            self = .container(name: container)
        } else if parts.first == "user.slice" {
            // The user manager (`user@UID.service`) outranks the apps it runs; a login scope names a session.
            let name = parts.first { $0.hasPrefix("user@") && $0.hasSuffix(".service") }
                ?? parts.first { $0.hasSuffix(".scope") }
            self = name.map { .session(name: $0) } ?? .bare
        } else if let unit = parts.last(where: { $0.hasSuffix(".service") }) {
            self = .service(unit: unit)
        } else if parts == ["init.scope"] {
            self = .service(unit: "init.scope")
        } else {
            self = .bare
        }
    }

    /// The unit `systemctl restart` takes; `nil` for anything but a systemd service.
    public var unit: String? {
        if case .service(let unit) = self { return unit }
        return nil
    }

    /// What a restart job restarts for this owner: a systemd service's unit, an init script's
    /// path (`/etc/init.d/nginx`); `nil` for sessions, containers and bare processes.
    public var service: String? {
        switch self {
        case .service(let unit): unit
        case .initScript(let name): Self.initScriptFolder + name
        case .session, .container, .bare: nil
        }
    }

    /// Where init scripts are: a service that starts with it is restarted by running its script.
    public static let initScriptFolder = "/etc/init.d/"

    private static func containerName(_ parts: [String]) -> String? {
        for (index, part) in parts.enumerated() {
            if ["docker", "lxc", "kubepods", "podman"].contains(part) || part.hasPrefix("kubepods") {
                return index + 1 < parts.count ? parts[index + 1] : part
            }
            if part.hasPrefix("lxc.payload.") { return String(part.dropFirst("lxc.payload.".count)) }
            for prefix in ["docker-", "libpod-", "cri-containerd-", "crio-", "machine-"] where part.hasPrefix(prefix) && part.hasSuffix(".scope") {
                return String(part.dropFirst(prefix.count).dropLast(".scope".count))
            }
        }
        return nil
    }
}
