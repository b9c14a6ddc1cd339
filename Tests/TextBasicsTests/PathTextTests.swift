import Testing
import TextBasics

/// `PathText` gives what NSString's path methods gave for the paths installtop builds.
@Suite("PathText: a path's folder, last component, joining and ~")
struct PathTextTests {
    @Test("parent: the folder that holds a path, / for a top-level one, empty for a bare name", arguments: [
        ("/a/b", "/a"), ("/a", "/"), ("a", ""), ("/a/b/", "/a"), ("/", "/"), ("a/b", "a"), ("/a//b", "/a"), ("", ""),
    ])
    func parent(path: String, expected: String) {
        #expect(PathText.parent(of: path) == expected)
    }

    @Test("lastComponent: trailing slashes ignored, / stays /", arguments: [
        ("/a/b", "b"), ("/a/b/", "b"), ("/", "/"), ("b", "b"), ("", ""), ("/var/lib/dpkg/status", "status"),
    ])
    func lastComponent(path: String, expected: String) {
        #expect(PathText.lastComponent(of: path) == expected)
    }

    @Test("appending: one slash between folder and component")
    func appending() {
        #expect(PathText.appending("b", to: "/a") == "/a/b")
        #expect(PathText.appending("b", to: "/a/") == "/a/b")
        #expect(PathText.appending("/b", to: "/a") == "/a/b")
        #expect(PathText.appending("b", to: "") == "b")
        #expect(PathText.appending("x.cast", to: "/") == "/x.cast")
    }

    @Test("expandingTilde: ~ and ~/… from HOME, ~root from the password database, others unchanged")
    func expandingTilde() throws {
        let home = try #require(ProcessEnvironment.home)
        #expect(PathText.expandingTilde("~") == home)
        #expect(PathText.expandingTilde("~/x/y") == (home == "/" ? "" : home) + "/x/y")
        #expect(PathText.expandingTilde("~root/x") == "/root/x")
        #expect(PathText.expandingTilde("~no-such-user-here/x") == "~no-such-user-here/x")
        #expect(PathText.expandingTilde("/a/~/b") == "/a/~/b")
        #expect(PathText.expandingTilde("a") == "a")
    }
}
