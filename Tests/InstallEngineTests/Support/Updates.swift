import InstallEngine

/// An update with an install and uninstall command, for fake-backend tests.
func update(_ id: String, reboot: RebootBehavior = .never, impact: InstallationImpact = .normal,
            progress: ProgressSource = .channel, timeout: Duration? = nil,
            abortGrace: Duration = .seconds(10)) -> Update {
    Update(id: id, title: "Update \(id)", installCommand: .argv(["install", id]),
           uninstallCommand: .argv(["uninstall", id]), rebootBehavior: reboot, impact: impact,
           progressSource: progress, timeout: timeout, abortGrace: abortGrace)
}
