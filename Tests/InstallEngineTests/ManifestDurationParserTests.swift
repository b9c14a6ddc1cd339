import InstallEngine
import Testing

@Suite("Manifest durations: 500ms, 10s, 5m, 2h and sums")
struct ManifestDurationParserTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)),
        ("10s", .seconds(10)),
        ("5m", .seconds(300)),
        ("2h", .seconds(7200)),
        ("1h30m", .seconds(5400)),
        ("1m30s", .seconds(90)),
        ("1s500ms", .milliseconds(1500)),
        ("1.5s", .milliseconds(1500)),
        (".5h", .seconds(1800)),
        ("0s", .zero),
        ("0.001ms", .nanoseconds(1000)),
    ])
    func reads(_ text: String, _ expected: Duration) {
        #expect(DurationParser.parse(text) == expected)
    }

    @Test(arguments: ["", "30", "1.5", "10 s", " 10s", "10s ", "5min", "-5s", "+5s", "1H", "s", "ms", ".s", "1d", "1h30", "9999999999h"])
    func refuses(_ text: String) {
        #expect(DurationParser.parse(text) == nil)
    }
}
