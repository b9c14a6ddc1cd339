/// apt refused a manifest's package job while it was being planned, or Ansible a fleet run while
/// it was being checked: nothing ran (exit 2).
struct JobPlanRefusal: Error {
    /// `FILE:LINE: job `name`: apt install x: nothing was run:` and apt's words.
    var message: String
}
