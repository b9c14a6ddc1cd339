import APTTestSupport
import Foundation
import Glibc
import InstallDrivers
import Testing

/// A stop before rpm's transaction, while dnf downloads: the lab repository is served over HTTP
/// inside a network namespace of the test's own (`unshare -n`, only its loopback up), by a
/// server that sends the metadata and then stalls every package's body, so dnf waits in its
/// download. The stop ends the job at once, nothing installed.
@Suite("installtop dnf: a stop before rpm's transaction")
struct DNFStopBeforeRPMTests {
    /// Serves FOLDER on 127.0.0.1:PORT; a `.rpm` gets its headers and 1 kB, then nothing until
    /// the client goes away. It writes `ready` once it listens, and ends with its parent
    /// (installtop), or after 300 s.
    private static let stallingServer = """
        import http.server, os, select, sys, threading
        folder, port, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *a, **k): super().__init__(*a, directory=folder, **k)
            def log_message(self, *a): pass
            def do_GET(self):
                if not self.path.endswith('.rpm'): return super().do_GET()
                size = os.path.getsize(os.path.join(folder, self.path.lstrip('/')))
                self.send_response(200); self.send_header('Content-Length', str(size)); self.end_headers()
                self.wfile.write(b'\\0' * 1024); self.wfile.flush()
                select.select([self.connection], [], [], 300)
        server = http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler)
        server.daemon_threads = True
        parent = os.getppid()
        def watch():
            for _ in range(3000):
                if os.getppid() != parent: break
                threading.Event().wait(0.1)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        open(ready, 'w').close()
        server.serve_forever()
        """

    @Test("Before rpm runs, a stop ends the job: its package aborted, rpm never began, nothing in the rpm database")
    func stopWhileDownloading() async throws {
        try PrivateDNFRoot.requireTools()
        let root = try PrivateDNFRoot(temporaryWithPrefix: "itop-dnf-stop")
        defer { root.remove() }
        try root.publish([DNFTestLab.printer])
        let folder = try TestFolder()
        defer { folder.remove() }
        // No low-speed limit (dnf's default gives up after 30 s below 1000 bytes/s, which a
        // loaded machine reached before the stop came): the stall lasts until the stop.
        try Data("[lab]\nname=lab over http\nbaseurl=http://127.0.0.1:8765/\nenabled=1\ngpgcheck=0\nmetadata_expire=0\nminrate=0\ntimeout=600\n".utf8)
            .write(to: URL(fileURLWithPath: root.root + "/etc/yum.repos.d/lab.repo"))
        let script = folder.file("stall.py")
        try Data(Self.stallingServer.utf8).write(to: URL(fileURLWithPath: script))
        let ready = folder.file("ready")
        let installtop = try InstalltopBinary.path()
        // unshare becomes the shell, which starts the server and then becomes installtop (exec):
        // the pid the test signals is installtop's, and the server's parent, whose end ends it.
        let process = try InstalltopProcess(
            ["-n", "--", "/bin/sh", "-c",
             "ip link set lo up && { /usr/bin/python3 \"$1\" \"$2\" 8765 \"$3\" & } && while [ ! -e \"$3\" ]; do sleep 0.05; done && shift 3 && exec \"$@\"",
             "sh", script, root.repository, ready, installtop, "dnf", "install", "lab-print", "--yes", "--json", "--no-history",
             "--installroot", root.root, "--releasever", root.releaseVersion],
            in: folder, executable: "/usr/bin/unshare")
        try await process.waitForOutput(#""jobMessage":"downloading"#)
        process.send(SIGINT)
        let result = try await process.finish(timeout: .seconds(60))
        #expect(result.status == 3, "aborted: \(result.stderr)")
        let events = try result.jsonEvents()
        let completed = try #require(events.first { $0.name == "update.completed" })
        #expect(completed.string("result") == "aborted", "\(completed)")
        #expect(!events.contains { $0.name == "update.started" }, "rpm began on nothing")
        #expect(root.installedVersions(of: "lab-print").isEmpty)
    }
}
