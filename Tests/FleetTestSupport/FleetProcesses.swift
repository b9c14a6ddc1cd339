/// The long-lived children of one fleet, guarded by `FleetTestHosts`'s lock: per host the
/// holder (the process that keeps the host's UTS and mount namespaces, hence its hostname and
/// private /run) and the sshd, `nil` once stopped.
struct FleetProcesses {
    var holders: [FleetChild]
    var sshds: [FleetChild?]
    var tornDown = false
}
