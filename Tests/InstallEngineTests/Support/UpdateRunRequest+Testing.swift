import InstallEngine

extension UpdateRunRequest {
    /// A request to run `command` for an update with the given settings.
    static func running(
        _ command: UpdateCommand,
        id: String = "test-update",
        operation: UpdateOperation = .install,
        workingDirectory: String? = nil,
        environment: [String: String] = [:],
        jobName: String = "test-job"
    ) -> UpdateRunRequest {
        let update = Update(id: id, installCommand: command, uninstallCommand: command,
                            workingDirectory: workingDirectory, environment: environment)
        return UpdateRunRequest(update: update, operation: operation, command: command, jobName: jobName)
    }
}
