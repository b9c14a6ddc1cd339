import EngineDaemon
import FleetTestSupport
import Foundation
import Testing

/// The text exposition format as installtop writes it, byte for byte, and as Prometheus' own
/// parser (prometheus_client) reads it back.
@Suite("Metrics: the text exposition format")
struct MetricFamilyTests {
    /// Label values and a HELP text with every character the format escapes.
    static let awkward = MetricFamily(
        name: "installtop_test_things_total", help: "Things \"quoted\", a back\\slash and a\nsecond line.", type: .counter,
        samples: [
            MetricSample(labels: [MetricLabel("path", "C:\\temp\\"), MetricLabel("said", "a \"quote\"")], value: 3),
            MetricSample(labels: [MetricLabel("path", "two\nlines"), MetricLabel("said", "ünïcode ✔ {},=")], value: 0.25),
        ])

    @Test("label values escape \\ \" and line feeds, HELP escapes \\ and line feeds only, every line ends in a line feed")
    func escaping() {
        #expect(Self.awkward.text == """
            # HELP installtop_test_things_total Things "quoted", a back\\\\slash and a\\nsecond line.
            # TYPE installtop_test_things_total counter
            installtop_test_things_total{path="C:\\\\temp\\\\",said="a \\"quote\\""} 3
            installtop_test_things_total{path="two\\nlines",said="ünïcode ✔ {},="} 0.25

            """)
        #expect(MetricFamily.escapedLabelValue("\\\"\n") == #"\\\"\n"#)
        #expect(MetricFamily.escapedHelp("\\\"\n") == #"\\"\n"#)
    }

    @Test("values: whole numbers without a fraction, others exactly, infinities and NaN as Prometheus spells them")
    func values() {
        #expect(MetricFamily.valueText(0) == "0")
        #expect(MetricFamily.valueText(-2) == "-2")
        #expect(MetricFamily.valueText(1_764_331_200) == "1764331200")
        #expect(MetricFamily.valueText(1_764_331_200.5) == "1764331200.5")
        #expect(MetricFamily.valueText(0.1) == "0.1")
        #expect(MetricFamily.valueText(1e300) == "1e+300")
        #expect(MetricFamily.valueText(.infinity) == "+Inf")
        #expect(MetricFamily.valueText(-.infinity) == "-Inf")
        #expect(MetricFamily.valueText(.nan) == "NaN")
    }

    @Test("a summary writes _sum and _count; a family without samples writes HELP and TYPE only; no families, no text")
    func summaryAndEmpty() {
        let summary = MetricFamily(name: "installtop_test_seconds", help: "Durations.", type: .summary, samples: [
            MetricSample(suffix: "_sum", labels: [MetricLabel("kind", "apt")], value: 1.5),
            MetricSample(suffix: "_count", labels: [MetricLabel("kind", "apt")], value: 2),
        ])
        let empty = MetricFamily(name: "installtop_test_nothing", help: "Nothing yet.", type: .gauge)
        #expect(MetricFamily.exposition([summary, empty]) == """
            # HELP installtop_test_seconds Durations.
            # TYPE installtop_test_seconds summary
            installtop_test_seconds_sum{kind="apt"} 1.5
            installtop_test_seconds_count{kind="apt"} 2
            # HELP installtop_test_nothing Nothing yet.
            # TYPE installtop_test_nothing gauge

            """)
        #expect(MetricFamily.exposition([]) == "")
    }

    @Test("prometheus_client reads the awkward family back: the same name, type, HELP, labels and values",
          .enabled(if: PrometheusTextParser.runsHere, Comment(rawValue: PrometheusTextParser.missingReason)))
    func prometheusReadsItBack() async throws {
        let parser = try PrometheusTextParser.locate()
        let summary = MetricFamily(name: "installtop_test_seconds", help: "Durations.", type: .summary, samples: [
            MetricSample(suffix: "_sum", value: 1.5), MetricSample(suffix: "_count", value: 2),
        ])
        let families = try await parser.parse(MetricFamily.exposition([Self.awkward, summary]))
        try #require(families.count == 2, "\(families)")
        // The parser names a counter's family without `_total`, its samples with it.
        #expect(families[0].name == "installtop_test_things" && families[0].type == "counter")
        #expect(families[0].help == "Things \"quoted\", a back\\slash and a\nsecond line.")
        #expect(families[0].samples == [
            PrometheusTextParser.Sample(name: "installtop_test_things_total", labels: ["path": "C:\\temp\\", "said": "a \"quote\""], value: 3),
            PrometheusTextParser.Sample(name: "installtop_test_things_total", labels: ["path": "two\nlines", "said": "ünïcode ✔ {},="], value: 0.25),
        ])
        #expect(families[1].name == "installtop_test_seconds" && families[1].type == "summary")
        #expect(families[1].samples.map(\.name) == ["installtop_test_seconds_sum", "installtop_test_seconds_count"])
        #expect(families[1].samples.map(\.value) == [1.5, 2])
    }
}
