import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PatchPolicy

/// `--state-dir FOLDER`: where the nights' stamps are, for `patch` (which writes them) and
/// `attach --night` (which follows one).
struct NightStateOption: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "The folder of the nights' stamps (default: /var/lib/installtop/nights for root, $XDG_STATE_HOME/installtop/nights otherwise).",
        valueName: "folder"))
    var stateFolder: String?

    /// The stamps' folder: `--state-dir`, else the default for this user.
    var folder: String {
        stateFolder ?? NightStampLocation.defaultFolder(euid: geteuid(), environment: ProcessInfo.processInfo.environment)
    }

    /// The stamp of the policy at `policy` (a path as given: made absolute first, so that
    /// `night.yaml` and `./night.yaml` share one).
    func stampFile(policy: String) -> StampFile {
        StampFile(path: NightStampLocation.stamp(policy: PatchCommand.absolute(policy), folder: folder))
    }
}
