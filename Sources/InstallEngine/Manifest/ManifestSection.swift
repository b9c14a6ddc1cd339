/// The kinds of mapping a manifest is made of, with the keys each accepts.
enum ManifestSection: YAMLSection {
    case topLevel
    case defaults
    /// A job, which also accepts the keys of the registered job kinds.
    case job(kindKeys: [String])
    case update
    /// A job kind's section (`apt:`), with the keys its kind accepts.
    case kind(key: String, keys: [String], expectation: String)

    /// The keys `defaults`, a job and an update all accept; inner levels override outer ones.
    static let settingKeys = ["timeout", "abort_grace", "reboot", "impact", "progress", "workdir", "env"]

    /// In the order the documentation shows them, which is the order error messages list them.
    var allowedKeys: [String] {
        switch self {
        case .topLevel: return ["defaults", "jobs"]
        case .defaults: return Self.settingKeys
        case .job(let kindKeys): return ["name", "operation", "stop_on_failure", "updates"] + kindKeys + Self.settingKeys
        case .kind(_, let keys, _): return keys
        case .update:
            return [
                "id", "revision", "title", "install", "uninstall", "reboot", "impact", "progress", "size",
                "severity", "description", "categories", "workdir", "env", "timeout", "abort_grace",
            ]
        }
    }

    /// Where a key is, for `unknown key `x` in update`.
    var phrase: String {
        switch self {
        case .topLevel: return "at the top level"
        case .defaults: return "in defaults"
        case .job: return "in job"
        case .update: return "in update"
        case .kind(let key, _, _): return "in \(key)"
        }
    }

    /// What the mapping should have been, for `expected …; got a list`.
    var expectation: String {
        switch self {
        case .topLevel: return "a manifest (a mapping with `jobs` and optional `defaults`)"
        case .defaults: return "a mapping of defaults"
        case .job: return "a job (a mapping with `name` and `updates`)"
        case .update: return "an update (a mapping with `id` and a command)"
        case .kind(_, _, let expectation): return expectation
        }
    }
}
