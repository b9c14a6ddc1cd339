import Foundation
import TestProcessSupport

/// A stand-in for `ssh` whose link reads slowly (issue 34: "over ssh every link is slow"): run
/// as `SSHCommand(host: SOCKET, remoteCommand: RATE, program: path)`, it connects to the engine
/// socket named as the host, copies its stdin there as it comes, and copies the engine's bytes
/// to its stdout at most RATE bytes a second (0: as fast as they come). A Python script: the
/// test needs no network, no sshd and no `installtop bridge`.
struct ThrottledSSH {
    let path: String

    init(in folder: String) throws {
        path = folder + "/throttled-ssh"
        try #"""
            #!/usr/bin/python3
            import os, socket, sys, threading, time
            args = sys.argv[1:]
            rest = args[args.index("--") + 1:]
            path, rate = rest[0], int(rest[1])
            link = socket.socket(socket.AF_UNIX)
            link.connect(path)
            def upward():
                while True:
                    data = os.read(0, 65536)
                    if not data:
                        link.shutdown(socket.SHUT_WR)
                        return
                    link.sendall(data)
            threading.Thread(target=upward, daemon=True).start()
            out = sys.stdout.buffer
            while True:
                data = link.recv(16384)
                if not data:
                    break
                out.write(data)
                out.flush()
                if rate:
                    time.sleep(len(data) / rate)
            """#.write(toFile: path, atomically: true, encoding: .utf8)
        try ExecutableFile.makeExecutable(path)
    }
}
