/// The kinds of mapping a manifest is made of, with the keys each accepts.
enum ManifestSection {
    case topLevel
    case defaults
    case job
    case update
    /// A job's `apt:` (PRODUCT.md "Package jobs").
    case apt
    /// A job's `ansible:` (PRODUCT.md "Fleet jobs").
    case ansible

    /// The keys `defaults`, a job and an update all accept; inner levels override outer ones.
    static let settingKeys = ["timeout", "abort_grace", "reboot", "impact", "progress", "workdir", "env"]

    /// In the order the documentation shows them, which is the order error messages list them.
    var allowedKeys: [String] {
        switch self {
        case .topLevel: return ["defaults", "jobs"]
        case .defaults: return Self.settingKeys
        case .job: return ["name", "operation", "stop_on_failure", "updates", "apt", "ansible"] + Self.settingKeys
        case .apt: return ["install", "upgrade", "full_upgrade", "remove", "apt_config", "chroot"]
        case .ansible: return ["playbook", "inventory", "limit", "args"]
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
        case .apt: return "in apt"
        case .ansible: return "in ansible"
        }
    }

    /// What the mapping should have been, for `expected …; got a list`.
    var expectation: String {
        switch self {
        case .topLevel: return "a manifest (a mapping with `jobs` and optional `defaults`)"
        case .defaults: return "a mapping of defaults"
        case .job: return "a job (a mapping with `name` and `updates`)"
        case .update: return "an update (a mapping with `id` and a command)"
        case .apt: return "an apt request ({install: [packages]}, {upgrade: true}, {full_upgrade: true} or {remove: [packages]})"
        case .ansible: return "an Ansible run ({playbook: site.yml, inventory: hosts.ini, limit: web*, args: [...]})"
        }
    }
}
