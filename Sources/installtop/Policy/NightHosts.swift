import EngineDaemon
import PatchPolicy

/// What a night's host runner is made from (`KindRegistration.nightHostRunner`): the policy,
/// how each host is reached, the window and the night's shared reboot places. The package kind
/// that patches hosts in a night (apt's) makes its runner from it.
struct NightHosts: Sendable {
    let policy: PatchPolicy
    /// The policy's path as the stamp records it (absolute), for the commands' environment.
    let policyPath: String
    /// How to reach each of the policy's hosts.
    let commands: [String: SSHCommand]
    /// The opening the night runs in (seconds since 1970): a restarted night looks for its
    /// hosts' runs armed since then.
    let windowStart: Int
    /// When the night's window closes (seconds since 1970, on `clock`'s time): no reboot starts after.
    let windowEnd: Int
    /// The folder of checks each host's engine runs; `nil`: the host's `/etc/installtop/confirm.d`.
    let checksDirectory: String?
    /// The time now (seconds since 1970), for the age gate: the wall clock, shifted as the
    /// night's own `now` is.
    let clock: @Sendable () -> Int
    /// The night's reboot places (`reboot.at_once`), shared by every host.
    let rebootPlaces: RebootPlaces
}
