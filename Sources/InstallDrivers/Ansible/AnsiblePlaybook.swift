#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TextBasics

/// `ansible-playbook` as installtop runs it: found, asked first what it would do (so a syntax
/// error or a pattern that matches no host is refused before anything is shown as running),
/// then run with installtop's callback plugin speaking the driver protocol on fd 3 and 4.
struct AnsiblePlaybook {
    /// The executable.
    let path: String
    /// The playbook and every argument for it (`-i`, `--limit`, the operator's own).
    let arguments: [String]

    /// Why it cannot run: Ansible's own words, or what is missing. The command exits 2.
    struct Refusal: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// `explicit`, or `ansible-playbook` on `PATH`.
    static func find(_ explicit: String?) throws(Refusal) -> String {
        if let explicit {
            guard FileManager.default.isExecutableFile(atPath: explicit) else {
                throw Refusal(message: "\(explicit) is not an executable file")
            }
            return explicit
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = String(folder) + "/ansible-playbook"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Refusal(message: "ansible-playbook was not found on PATH: install ansible-core (pip install ansible-core) or name it with --ansible-playbook PATH")
    }

    /// `ansible-playbook --list-hosts …`: the playbook parses and its plays match hosts.
    /// - Returns: how many hosts the plays name in all.
    func check() throws(Refusal) -> Int {
        let result = SystemCommand.run([path, "--list-hosts"] + arguments, environment: ["ANSIBLE_NOCOLOR": "1"])
        guard !result.failedToStart else { throw Refusal(message: result.stderr) }
        let said = (result.stderr + result.stdout).trimmingWhitespace
        guard result.status == 0 else {
            throw Refusal(message: said.isEmpty ? "ansible-playbook exited with status \(result.status)" : said)
        }
        // `    hosts (2):` per play.
        let counts = result.stdout.split(separator: "\n").compactMap { line -> Int? in
            let text = line.trimmingSpaces
            guard text.hasPrefix("hosts ("), let close = text.firstIndex(of: ")") else { return nil }
            return Int(text[text.index(text.startIndex, offsetBy: 7)..<close])
        }
        let hosts = counts.reduce(0, +)
        guard hosts > 0 else {
            let warning = result.stderr.split(separator: "\n").first { $0.contains("WARNING") || $0.contains("ERROR") }
            throw Refusal(message: "no host matched: no play of the playbook has a host to run on" + (warning.map { "\n" + $0 } ?? ""))
        }
        return hosts
    }

    /// The driver that runs the playbook with installtop's plugin, written to `pluginFolder`.
    /// The operator's own callbacks and callback folders stay enabled beside it.
    func driver(pluginFolder: String) -> ProtocolSessionDriver {
        let environment = ProcessInfo.processInfo.environment
        var variables = ["ANSIBLE_NOCOLOR": "1"]
        variables["ANSIBLE_CALLBACK_PLUGINS"] = ([pluginFolder] + (environment["ANSIBLE_CALLBACK_PLUGINS"].map { [$0] } ?? []))
            .joined(separator: ":")
        variables["ANSIBLE_CALLBACKS_ENABLED"] = (["installtop"] + (environment["ANSIBLE_CALLBACKS_ENABLED"].map { [$0] } ?? []))
            .joined(separator: ",")
        return ProtocolSessionDriver(command: [path] + arguments, environment: variables)
    }
}
