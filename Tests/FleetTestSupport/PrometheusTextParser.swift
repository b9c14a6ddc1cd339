import Foundation
import Glibc

/// Prometheus' own parser of the text exposition format: `prometheus_client.parser` of the
/// `prometheus-client` package, in the virtual environment `Scripts/install-prerequisites test`
/// makes at `.build/ansible-venv` (beside ansible-core). Tests of installtop's metrics textfile
/// read it through this rather than through installtop's own code.
public struct PrometheusTextParser: Sendable {
    /// The virtual environment's python, which imports `prometheus_client`.
    public let python: String

    /// `nil` when the virtual environment has no `prometheus_client`.
    public static let located: PrometheusTextParser? = {
        let python = AnsibleToolchain.virtualEnvironmentBin + "/python3"
        guard access(python, X_OK) == 0,
              let result = try? FleetCommand.run([python, "-c", "import prometheus_client.parser"], timeout: .seconds(60)),
              result.status == 0 else { return nil }
        return PrometheusTextParser(python: python)
    }()

    /// Whether a test that needs the parser runs: it is there, or this is CI (`CI` set), where a
    /// missing parser is a broken setup and the test fails rather than skips.
    public static var runsHere: Bool { located != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    /// Why such a test is skipped: what to run to have the parser.
    public static let missingReason = """
        prometheus-client is not in .build/ansible-venv: run Scripts/install-prerequisites test, \
        or .build/ansible-venv/bin/pip install prometheus-client
        """

    /// The parser, or an error saying how to install it.
    public static func locate() throws -> PrometheusTextParser {
        guard let located else { throw FleetTestError(missingReason) }
        return located
    }

    /// One sample as the parser reads it: the sample's full name (`…_total`, `…_sum`), its
    /// labels unescaped, and its value.
    public struct Sample: Sendable, Hashable {
        public let name: String
        public let labels: [String: String]
        public let value: Double

        public init(name: String, labels: [String: String], value: Double) {
            self.name = name
            self.labels = labels
            self.value = value
        }
    }

    /// One family as the parser reads it: its name (a counter's without `_total`), type, HELP
    /// text unescaped, and samples in order.
    public struct Family: Sendable, Hashable {
        public let name: String
        public let type: String
        public let help: String
        public let samples: [Sample]
    }

    private static let script = """
        import json, math, sys
        from prometheus_client.parser import text_string_to_metric_families
        text = open(sys.argv[1], encoding="utf-8").read()
        families = []
        for family in text_string_to_metric_families(text):
            families.append({"name": family.name, "type": family.type, "help": family.documentation,
                             "samples": [{"name": s.name, "labels": s.labels, "value": repr(s.value)} for s in family.samples]})
        print(json.dumps(families))
        """

    /// Parses `text` with `text_string_to_metric_families`.
    /// - Throws: when the parser refuses the text (its exception is in the error).
    public func parse(_ text: String) async throws -> [Family] {
        let folder = FileManager.default.temporaryDirectory.appending(path: "itop-prometheus-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.script.write(toFile: folder + "/parse.py", atomically: true, encoding: .utf8)
        try text.write(toFile: folder + "/metrics.prom", atomically: true, encoding: .utf8)
        let result = try await FleetCommand.run([python, folder + "/parse.py", folder + "/metrics.prom"], timeout: .seconds(120))
        guard result.status == 0,
              let families = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw FleetTestError("prometheus_client refused the text (exit \(result.status)): \(result.stderr)\n\(text)")
        }
        return families.map { family in
            Family(name: family["name"] as? String ?? "", type: family["type"] as? String ?? "", help: family["help"] as? String ?? "",
                   samples: (family["samples"] as? [[String: Any]] ?? []).map { sample in
                       Sample(name: sample["name"] as? String ?? "", labels: sample["labels"] as? [String: String] ?? [:],
                              value: Double(sample["value"] as? String ?? "") ?? .nan)
                   })
        }
    }
}
