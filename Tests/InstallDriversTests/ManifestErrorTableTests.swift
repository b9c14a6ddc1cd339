import InstallDrivers
import InstallEngine
import Testing

/// A manifest that must be refused, with every error it must produce, as `LINE:COLUMN: message`.
struct BrokenManifest: Sendable, CustomTestStringConvertible {
    let name: String
    let yaml: String
    let expected: [String]

    var testDescription: String { name }
}

@Suite("Manifest errors: exact messages and positions")
struct ManifestErrorTableTests {
    /// Not a real folder: no case below depends on the file system except through it.
    static let path = "/nonexistent-installtop/m.yaml"

    /// One update that installs, to build valid surroundings for the case under test.
    static let fine = "      - {id: fine, install: 'true'}"

    static let cases: [BrokenManifest] = [
        // MARK: YAML syntax
        BrokenManifest(
            name: "bad indentation",
            yaml: "jobs:\n  - name: a\n   updates: x\n",
            expected: ["3:4: invalid YAML: while parsing a block collection at line 2, column 3, did not find expected '-' indicator"]),
        BrokenManifest(
            name: "unclosed quote",
            yaml: "jobs:\n  - name: \"abc\n",
            expected: ["3:1: invalid YAML: while scanning a quoted scalar at line 2, column 11, found unexpected end of stream"]),
        BrokenManifest(
            name: "a key twice in one mapping",
            yaml: "jobs:\n  - name: a\n    name: b\n",
            expected: ["2:5: key `name` appears more than once in this mapping"]),
        BrokenManifest(
            name: "control character",
            yaml: "jobs:\n  - name: a\u{1}b\n",
            expected: ["2:12: invalid YAML: control characters are not allowed"]),
        BrokenManifest(
            name: "two documents",
            yaml: "jobs: []\n---\njobs: []\n",
            expected: ["2:1: invalid YAML: expected a single document in the stream at line 1, column 1, but found another document"]),

        // MARK: Unknown keys
        BrokenManifest(
            name: "unknown key with a suggestion",
            yaml: "jobs:\n  - name: a\n    updates:\n      - id: u\n        install: x\n        timout: 5s\n",
            expected: [
                "6:9: unknown key `timout` in update; expected one of: id, revision, title, install, uninstall, reboot, impact, progress, size, severity, description, categories, workdir, env, timeout, abort_grace; did you mean `timeout`?"
            ]),
        BrokenManifest(
            name: "unknown key with a swapped pair of letters",
            yaml: "jobs:\n  - name: a\n    updaets: []\n",
            expected: [
                "2:5: job `a` has no updates",
                "3:5: unknown key `updaets` in job; expected one of: name, operation, stop_on_failure, updates, apt, ansible, timeout, abort_grace, reboot, impact, progress, workdir, env; did you mean `updates`?",
            ]),
        BrokenManifest(
            name: "unknown key far from any known one",
            yaml: "defaults:\n  colour: red\njobs:\n  - name: a\n    updates:\n\(fine)\n",
            expected: ["2:3: unknown key `colour` in defaults; expected one of: timeout, abort_grace, reboot, impact, progress, workdir, env"]),
        BrokenManifest(
            name: "unknown top-level key",
            yaml: "job:\n  - name: a\n",
            expected: [
                "1:1: unknown key `job` at the top level; expected one of: defaults, jobs; did you mean `jobs`?",
                "1:1: no jobs",
            ]),

        // MARK: Wrong types
        BrokenManifest(
            name: "a list where a string belongs",
            yaml: "jobs:\n  - name: [a, b]\n    updates:\n\(fine)\n",
            expected: ["2:11: expected a string; got a list"]),
        BrokenManifest(
            name: "updates of the wrong type is one error",
            yaml: "jobs:\n  - name: a\n    updates: {id: u, install: x, bogus: 1}\n",
            expected: ["3:14: expected a list of updates; got a mapping"]),
        BrokenManifest(
            name: "an update that is a string",
            yaml: "jobs:\n  - name: a\n    updates:\n      - openssl\n",
            expected: ["4:9: expected an update (a mapping with `id` and a command); got `openssl`"]),
        BrokenManifest(
            name: "the manifest is a list",
            yaml: "- name: a\n",
            expected: ["1:1: expected a manifest (a mapping with `jobs` and optional `defaults`); got a list"]),
        BrokenManifest(
            name: "quoted number for an integer, negative size, fractional size",
            yaml: "jobs:\n  - name: a\n    updates:\n      - id: u\n        install: x\n        revision: \"3\"\n        size: -1\n      - id: v\n        install: x\n        revision: 0\n        size: 4.5\n",
            expected: [
                "6:19: expected an integer of at least 1; got the quoted string `3`",
                "7:15: expected an integer of at least 0; got `-1`",
                "10:19: expected an integer of at least 1; got `0`",
                "11:15: expected an integer of at least 0; got `4.5`",
            ]),
        BrokenManifest(
            name: "bad commands",
            yaml: "jobs:\n  - name: a\n    updates:\n      - {id: a, install: []}\n      - {id: b, install: ['', x]}\n      - {id: c, install: [x, [y]]}\n      - {id: d, install: '  '}\n      - {id: e, install: {run: x}}\n      - {id: f, install: }\n",
            expected: [
                "4:26: expected a command (a list of arguments or a string); got an empty list",
                "5:27: expected a program name; got an empty string",
                "6:30: expected a string; got a list",
                "7:26: expected a command (a list of arguments or a string); got `  `",
                "8:26: expected a command (a list of arguments or a string); got a mapping",
                "9:26: expected a command (a list of arguments or a string); got an empty value",
            ]),
        BrokenManifest(
            name: "bad environments",
            yaml: "defaults:\n  env: [A=1]\njobs:\n  - name: a\n    env: {\"A=B\": x, INSTALLTOP_JOB: y, OK: [1]}\n    updates:\n\(fine)\n",
            expected: [
                "2:8: expected a mapping of environment variables; got a list",
                "5:11: invalid environment variable name `A=B`: it must be non-empty and contain no `=`",
                "5:21: `INSTALLTOP_JOB` is set by installtop for every update and cannot be changed",
                "5:44: expected a string; got a list",
            ]),
        BrokenManifest(
            name: "categories must be a list",
            yaml: "jobs:\n  - name: a\n    updates:\n      - {id: u, install: x, categories: security}\n",
            expected: ["4:41: expected a list of strings; got `security`"]),
        BrokenManifest(
            name: "merge key with a scalar",
            yaml: "jobs:\n  - name: a\n    updates:\n      - <<: oops\n        id: u\n        install: x\n",
            expected: ["4:13: expected a mapping or a list of mappings to merge; got `oops`"]),

        // MARK: Ids and commands
        BrokenManifest(
            name: "duplicate id across jobs",
            yaml: "jobs:\n  - name: a\n    updates:\n      - id: openssl\n        install: x\n  - name: b\n    updates:\n      - id: openssl\n        install: y\n",
            expected: ["8:13: duplicate id `openssl`; first used at line 4"]),
        BrokenManifest(
            name: "missing name and id",
            yaml: "jobs:\n  - updates:\n      - install: x\n",
            expected: ["2:5: missing key `name` in job", "3:9: missing key `id` in update"]),
        BrokenManifest(
            name: "missing install command",
            yaml: "jobs:\n  - name: a\n    updates:\n      - id: u\n        uninstall: x\n",
            expected: ["4:9: missing command: update `u` in an install job needs an `install` command"]),
        BrokenManifest(
            name: "missing uninstall command",
            yaml: "jobs:\n  - name: a\n    operation: uninstall\n    updates:\n      - id: u\n        install: x\n",
            expected: ["5:9: missing command: update `u` in an uninstall job needs an `uninstall` command"]),

        // MARK: Durations
        BrokenManifest(
            name: "bare number, space, unknown unit, zero timeout",
            yaml: "defaults:\n  timeout: 30\n  abort_grace: 10 s\njobs:\n  - name: a\n    timeout: 0s\n    abort_grace: 5min\n    updates:\n\(fine)\n",
            expected: [
                "2:12: expected a duration such as 500ms, 10s, 5m or 2h; got `30`",
                "3:16: expected a duration such as 500ms, 10s, 5m or 2h; got `10 s`",
                "6:14: expected a timeout longer than 0, or none for no limit; got `0s`",
                "7:18: expected a duration such as 500ms, 10s, 5m or 2h; got `5min`",
            ]),

        // MARK: No jobs, no updates
        BrokenManifest(name: "empty file", yaml: "", expected: ["1:1: no jobs"]),
        BrokenManifest(name: "only a comment", yaml: "# nothing yet\n", expected: ["1:1: no jobs"]),
        BrokenManifest(name: "jobs missing", yaml: "defaults:\n  timeout: 5m\n", expected: ["1:1: no jobs"]),
        BrokenManifest(name: "jobs empty", yaml: "defaults: {}\njobs:\n", expected: ["2:1: no jobs"]),
        BrokenManifest(name: "jobs an empty list", yaml: "jobs: []\n", expected: ["1:1: no jobs"]),
        BrokenManifest(
            name: "jobs a mapping", yaml: "jobs:\n  name: a\n", expected: ["2:3: expected a list of jobs; got a mapping"]),
        BrokenManifest(
            name: "a job without updates, empty updates, null updates",
            yaml: "jobs:\n  - name: a\n  - name: b\n    updates: []\n  - name: c\n    updates:\n  - updates:\n",
            expected: [
                "2:5: job `a` has no updates",
                "4:5: job `b` has no updates",
                "6:5: job `c` has no updates",
                "7:5: missing key `name` in job",
                "7:5: job #4 has no updates",
            ]),

        // MARK: Enumerations and booleans
        BrokenManifest(
            name: "unknown enum values",
            yaml: "jobs:\n  - name: a\n    operation: instal\n    progress: bar\n    updates:\n      - {id: u, install: x, impact: Normal}\n",
            expected: [
                "3:16: expected install or uninstall; got `instal`",
                "4:15: expected channel, output or none; got `bar`",
                "6:37: expected normal, minor or exclusive; got `Normal`",
            ]),
        BrokenManifest(
            name: "reboot: no",
            yaml: "jobs:\n  - name: a\n    updates:\n      - id: u\n        install: x\n        reboot: no\n",
            expected: ["6:17: expected never, always or may; got the boolean `no`"]),
        BrokenManifest(
            name: "reboot: empty and quoted yes",
            yaml: "defaults:\n  reboot:\njobs:\n  - name: a\n    reboot: 'yes'\n    updates:\n\(fine)\n",
            expected: [
                "2:10: expected never, always or may; got an empty value",
                "5:13: expected never, always or may; got the quoted string `yes`",
            ]),
        BrokenManifest(
            name: "stop_on_failure: \"maybe\"",
            yaml: "jobs:\n  - name: a\n    stop_on_failure: \"maybe\"\n    updates:\n\(fine)\n",
            expected: ["3:22: expected true or false; got `maybe`"]),
        BrokenManifest(
            name: "stop_on_failure: quoted true",
            yaml: "jobs:\n  - name: a\n    stop_on_failure: 'true'\n    updates:\n\(fine)\n",
            expected: ["3:22: expected true or false; got the quoted string `true`"]),

        // MARK: Rule 2
        BrokenManifest(
            name: "exclusive mixed with others",
            yaml: "jobs:\n  - name: Kernel\n    updates:\n      - id: kernel\n        install: x\n        impact: exclusive\n\(fine)\n",
            expected: ["6:17: update `kernel` has impact exclusive and must be alone in its job, but job `Kernel` has 2 updates"]),
        BrokenManifest(
            name: "exclusive from the job's settings points at the job's key",
            yaml: "jobs:\n  - name: K\n    impact: exclusive\n    updates:\n      - {id: a, install: x}\n      - {id: b, install: x}\n",
            expected: [
                "3:13: update `a` has impact exclusive and must be alone in its job, but job `K` has 2 updates",
                "3:13: update `b` has impact exclusive and must be alone in its job, but job `K` has 2 updates",
            ]),

        // MARK: Several at once
        BrokenManifest(
            name: "several errors, all reported in file order",
            yaml: """
                defaults:
                  timout: 30m
                jobs:
                  - name: A
                    operation: instal
                    stop_on_failure: "maybe"
                    updates:
                      - id: x
                        reboot: no
                        timeout: 30
                        install: []
                      - id: x
                        impact: exclusive
                        install: y
                  - name: B
                    updates: {}
                  - name: C
                    updates:
                  - name: D
                    operation: uninstall
                    updates:
                      - id: y
                        install: z

                """,
            expected: [
                "2:3: unknown key `timout` in defaults; expected one of: timeout, abort_grace, reboot, impact, progress, workdir, env; did you mean `timeout`?",
                "5:16: expected install or uninstall; got `instal`",
                "6:22: expected true or false; got `maybe`",
                "9:17: expected never, always or may; got the boolean `no`",
                "10:18: expected a duration such as 500ms, 10s, 5m or 2h; got `30`",
                "11:18: expected a command (a list of arguments or a string); got an empty list",
                "12:13: duplicate id `x`; first used at line 8",
                "13:17: update `x` has impact exclusive and must be alone in its job, but job `A` has 2 updates",
                "16:14: expected a list of updates; got a mapping",
                "18:5: job `C` has no updates",
                "22:9: missing command: update `y` in an uninstall job needs an `uninstall` command",
            ]),
    ]

    @Test(arguments: cases)
    func isRefusedWithExactlyTheseErrors(_ broken: BrokenManifest) {
        let thrown = #expect(throws: ManifestErrors.self) {
            try ManifestLoader.load(yaml: broken.yaml, path: Self.path, kinds: testKinds.all)
        }
        let errors = thrown?.errors ?? []
        #expect(errors.map { "\($0.line):\($0.column): \($0.message)" } == broken.expected)
        #expect(errors.allSatisfy { $0.file == Self.path })
    }

    @Test func theTableCoversEveryKindOfErrorTheProductNames() {
        let messages = Self.cases.flatMap(\.expected).joined(separator: "\n")
        for kind in [
            "invalid YAML", "unknown key", "expected a string; got", "duplicate id", "missing command",
            "expected a duration", "no jobs", "has no updates", "expected install or uninstall",
            "the boolean `no`", "must be alone in its job",
        ] {
            #expect(messages.contains(kind), "no case produces \(kind)")
        }
    }
}
