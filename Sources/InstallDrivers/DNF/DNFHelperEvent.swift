import EngineWire
import InstallEngine

/// One line the dnf helper wrote (`Helper/installtop-dnf.py`, whose header is the protocol):
/// a JSON object with an `event`. A line that is not one, or an event this version does not
/// know, is `nil` and counted as an ignored line by whoever reads it.
enum DNFHelperEvent: Sendable, Hashable {
    /// A package of the resolved transaction, before anything runs.
    case item(DNFPlanItem)
    /// The resolution is complete: `count` packages of `download` bytes, `already` of them
    /// here already (dnf's cache, a local repository, a local rpm file).
    case planned(count: Int, download: Int64, already: Int64)
    /// The helper refused before anything changed (`kind`: unknown, depsolve, check, locked,
    /// root, permission, repo, changed, download, signature, other) and exits 2; after rpm's
    /// start, a failure of the helper itself (`other`, exit 1).
    case error(kind: String, message: String)
    /// Bytes of a package's download.
    case download(nameArch: String, done: Int64, total: Int64)
    /// A package's download ended.
    case downloaded(nameArch: String, ok: Bool, message: String?)
    /// rpm's transaction begins: from now on a stop can no longer cut it.
    case rpmStart
    /// rpm works on a package: `action` (read, erase, install, upgrade, cleanup, scriptlet, verify…),
    /// its own `done` of `total`; for a scriptlet, which one (`%pre`, `%post`, `%postun`…)
    /// when the helper knows it.
    case progress(nameArch: String, action: String, done: Int64, total: Int64, scriptlet: String? = nil)
    /// rpm works on the whole transaction, on no package (`prepare`, `posttrans`).
    case transactionProgress(action: String)
    /// A line a package's scriptlet wrote, on its standard output or error.
    case scriptletOutput(nameArch: String, text: String, stream: StandardStream = .stdout)
    /// A package's scriptlet failed.
    case scriptletError(nameArch: String, message: String)
    /// rpm's transaction ended.
    case rpmEnd(ok: Bool, errors: [String])
    /// What the rpm database holds of a package after the transaction.
    case final(nameArch: String, installed: [String])
    /// An installed version the transaction takes away, kept for undo before rpm's
    /// transaction (`--keep-into`), or not, and why.
    case kept(DNFKeptVersion)
    /// A stop came before rpm ran: nothing was installed; the helper exits 3.
    case stopped
    /// A stop came while rpm ran: it waits for the transaction's end.
    case stopDeferred

    /// The event `line` says; `nil` when it says none this version knows.
    init?(line: String) {
        guard line.hasPrefix("{"), let value = try? JSONParser.parse(line), let event = value["event"]?.stringValue else { return nil }
        let nameArch: String? = value["name"]?.stringValue.flatMap { name in value["arch"]?.stringValue.map { "\(name).\($0)" } }
        func bytes(_ key: String) -> Int64 { Int64(value[key]?.intValue ?? 0) }
        switch event {
        case "item":
            guard let item = Self.item(value) else { return nil }
            self = .item(item)
        case "planned":
            self = .planned(count: value["count"]?.intValue ?? 0, download: bytes("download"), already: bytes("already"))
        case "error":
            self = .error(kind: value["kind"]?.stringValue ?? "other", message: value["message"]?.stringValue ?? "dnf refused")
        case "download":
            guard let nameArch else { return nil }
            self = .download(nameArch: nameArch, done: bytes("done"), total: bytes("total"))
        case "downloaded":
            guard let nameArch else { return nil }
            self = .downloaded(nameArch: nameArch, ok: value["ok"]?.boolValue ?? false, message: value["message"]?.stringValue)
        case "rpm-start":
            self = .rpmStart
        case "progress":
            guard let nameArch else {
                self = .transactionProgress(action: value["action"]?.stringValue ?? "")
                return
            }
            self = .progress(nameArch: nameArch, action: value["action"]?.stringValue ?? "", done: bytes("done"), total: bytes("total"),
                             scriptlet: value["scriptlet"]?.stringValue)
        case "scriptlet-output":
            guard let nameArch, let text = value["text"]?.stringValue else { return nil }
            self = .scriptletOutput(nameArch: nameArch, text: text,
                                    stream: value["stream"]?.stringValue.flatMap(StandardStream.init(rawValue:)) ?? .stdout)
        case "scriptlet-error":
            guard let nameArch else { return nil }
            self = .scriptletError(nameArch: nameArch, message: value["message"]?.stringValue ?? "scriptlet failed")
        case "rpm-end":
            self = .rpmEnd(ok: value["ok"]?.boolValue ?? false, errors: value["errors"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        case "final":
            guard let nameArch else { return nil }
            self = .final(nameArch: nameArch, installed: value["installed"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        case "kept":
            guard let name = value["name"]?.stringValue, let arch = value["arch"]?.stringValue,
                  let version = value["evr"]?.stringValue, let file = value["file"]?.stringValue else { return nil }
            self = .kept(DNFKeptVersion(name: name, arch: arch, version: version,
                                        outcome: .kept(file: file, size: bytes("size"), source: value["source"]?.stringValue ?? "cache"),
                                        editedConfig: value["edited"]?.arrayValue?.compactMap(\.stringValue) ?? []))
        case "not-kept":
            guard let name = value["name"]?.stringValue, let arch = value["arch"]?.stringValue,
                  let version = value["evr"]?.stringValue else { return nil }
            self = .kept(DNFKeptVersion(name: name, arch: arch, version: version,
                                        outcome: .notKept(reason: value["reason"]?.stringValue ?? "the helper gave no reason")))
        case "stopped":
            self = .stopped
        case "stop-deferred":
            self = .stopDeferred
        default:
            return nil
        }
    }

    private static func item(_ value: JSONValue) -> DNFPlanItem? {
        guard let action = value["action"]?.stringValue.flatMap(DNFPlanItem.Action.init(rawValue:)),
              let name = value["name"]?.stringValue, let arch = value["arch"]?.stringValue else { return nil }
        return DNFPlanItem(action: action, name: name, arch: arch, oldVersion: value["old"]?.stringValue,
                           newVersion: value["new"]?.stringValue, size: value["size"]?.intValue.map(Int64.init),
                           repository: value["repo"]?.stringValue, isDependency: value["reason"]?.stringValue == "dependency",
                           obsoletedBy: value["by"]?.stringValue, isProtected: value["protected"]?.boolValue == true)
    }
}
