/// A job kind's planner refused a manifest's job (apt an unknown package, Ansible a playbook):
/// nothing ran (exit 2).
struct ManifestPlanRefusal: Error {
    /// `FILE:LINE: job `name`: apt install x: nothing was run:` and the tool's words.
    var message: String
}
