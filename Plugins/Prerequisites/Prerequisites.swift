import Foundation
import PackagePlugin

/// Installs the Debian packages the build needs (`Scripts/install-prerequisites build`:
/// libncurses-dev, libsqlite3-dev, libyaml-dev) before anything is compiled, so that `swift run installtop
/// demo` and `swift test` build on a machine that has only Swift.
///
/// SwiftPM runs build-tool plugins when it plans a build (a fresh checkout, a changed manifest,
/// a plan that failed), not on every build, so the script's quick check costs nothing on the
/// builds in between. The script is run here rather than as a prebuild command because SwiftPM
/// hides a prebuild command's output when it succeeds and the person building should read what
/// was installed: its lines become warnings, and when it fails (no root, apt-get failed) its
/// lines become the build's error. apt-get's own output goes to a log in the plugin's folder.
@main
struct Prerequisites: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let script = context.package.directoryURL.appending(path: "Scripts/install-prerequisites")
        let log = context.pluginWorkDirectoryURL.appending(path: "install-prerequisites.log")
        try FileManager.default.createDirectory(at: context.pluginWorkDirectoryURL, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: log.path, contents: nil),
              let logHandle = FileHandle(forWritingAtPath: log.path),
              let nothing = FileHandle(forReadingAtPath: "/dev/null")
        else { throw PrerequisitesFailure(messages: ["could not open \(log.path) for the script's output"], log: nil) }

        let process = Process()
        process.executableURL = script
        process.arguments = ["build"]
        var environment = ProcessInfo.processInfo.environment
        // apt-get and dpkg-query are found on PATH, which a plugin may be started without.
        environment["PATH"] = environment["PATH"] ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        process.environment = environment
        let messages = Pipe()
        process.standardOutput = messages
        process.standardError = logHandle
        process.standardInput = nothing
        try process.run()
        let text = String(decoding: messages.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n").map(String.init)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let logged = (try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
            throw PrerequisitesFailure(messages: lines, log: logged > 0 ? log.path : nil)
        }
        for line in lines {
            Diagnostics.warning(line)
        }
        return []
    }
}

/// The build's packages are missing and were not installed: what the script said (which
/// packages, the apt-get command to run as root) and where apt-get's output is, when it ran.
struct PrerequisitesFailure: Error, CustomStringConvertible {
    let messages: [String]
    let log: String?

    var description: String {
        let source = log.map { "(Scripts/install-prerequisites build; apt-get's output: \($0))" } ?? "(Scripts/install-prerequisites build)"
        return (messages + [source]).joined(separator: "\n")
    }
}
