import Foundation

extension APTTestRoot {
    /// Adds a `DPkg::Pre-Install-Pkgs` hook of the root's own (in its `apt.conf.d`) that reads
    /// apt's input, creates `entered` and waits until `released` exists: apt is held after its
    /// downloads and before dpkg, where it ignores SIGINT. Create `released` to let it go on.
    public func holdInPreInstallHook() throws -> (entered: String, released: String) {
        try FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: true)
        let (entered, released) = (root + "/tmp/in-hook", root + "/tmp/release")
        try "DPkg::Pre-Install-Pkgs:: \"cat >/dev/null; touch \(entered); while [ ! -e \(released) ]; do sleep 0.05; done\";\n"
            .write(toFile: root + "/etc/apt/apt.conf.d/50lab-hook", atomically: true, encoding: .utf8)
        return (entered, released)
    }
}
