import TextBasics

/// Where a policy's night stamp lives: one stamp per policy file, in a state folder (`--state-dir`):
/// `/var/lib/installtop/nights` for root, `$XDG_STATE_HOME/installtop/nights` (or
/// `~/.local/state/installtop/nights`) for anyone else.
public enum NightStampLocation {
    /// The default state folder for a process of user `euid` with `environment`.
    public static func defaultFolder(euid: UInt32, environment: [String: String]) -> String {
        if euid == 0 { return "/var/lib/installtop/nights" }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/installtop/nights" }
        return (environment["HOME"] ?? "/") + "/.local/state/installtop/nights"
    }

    /// The stamp of the policy at `policy` (an absolute path) in `folder`: the policy's file name
    /// without `.yaml`/`.yml`, then a hash of its whole path (`StableHash`), so that two policies of one name in
    /// different folders never share a stamp: `night-5f0c2a9e1b3d4c77.json`.
    public static func stamp(policy: String, folder: String) -> String {
        var name = PathText.lastComponent(of: policy)
        for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) { name = String(name.dropLast(suffix.count)) }
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        return folder + "/" + safe + "-" + StableHash.hex(policy) + ".json"
    }
}
