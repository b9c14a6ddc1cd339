/// What a job of the test-double zypper kind asks for: the packages to install.
struct FakeZypperJob: Sendable, Hashable {
    var packages: [String]
}
