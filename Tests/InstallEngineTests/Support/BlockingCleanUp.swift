import InstallEngine

/// Calls the synchronous (blocking) `cleanUp(timeout:)`; in async code the plain call would
/// pick the async overload.
func cleanUpBlocking(_ job: InstallationJob, timeout: Duration? = nil) throws(InstallerError) {
    try job.cleanUp(timeout: timeout)
}
