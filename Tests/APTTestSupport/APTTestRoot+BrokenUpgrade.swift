extension APTTestRoot {
    /// A root whose forced-abort repair cannot succeed: lab-rt and lab-kit (`Depends: lab-rt
    /// (= 1.0)`) installed at 1.0, and 2.0 of both published. lab-rt 2.0's preinst waits on its
    /// first run, touching `ROOT/tmp/held` (where a test cuts it), and once cut its postinst
    /// fails for ever, so no repair can configure it. It waits 10 minutes: a fully loaded
    /// suite once took 55 s to see `held` and cut it after the wait had ended on its own (a
    /// minute then); the cut kills the wait with the package's process group.
    public static func brokenUpgrade() throws -> APTTestRoot {
        try heldUpgrade(postinstFailsOnceCut: true)
    }

    /// `brokenUpgrade`'s root, whose postinst fails once cut when `postinstFailsOnceCut`;
    /// otherwise the repair after the cut completes the upgrade of both packages.
    public static func heldUpgrade(postinstFailsOnceCut: Bool) throws -> APTTestRoot {
        let apt = try APTTestRoot()
        do {
            try apt.publish([TestPackage(name: "lab-rt"), TestPackage(name: "lab-kit", depends: "lab-rt (= 1.0)")])
            try apt.aptGet(["-y", "install", "lab-rt", "lab-kit"], check: true)
            let failsOnceCut = """
                if [ -e "$DPKG_ROOT/tmp/held" ]; then echo "lab-rt: cannot start after an interruption" >&2; exit 1; fi
                """
            try apt.publish([
                TestPackage(name: "lab-rt", version: "2.0", preinst: """
                    mkdir -p "$DPKG_ROOT/tmp"
                    if [ ! -e "$DPKG_ROOT/tmp/held" ]; then touch "$DPKG_ROOT/tmp/held"; sleep 600 & wait $!; fi
                    """, postinst: postinstFailsOnceCut ? failsOnceCut : nil),
                TestPackage(name: "lab-kit", version: "2.0", depends: "lab-rt (= 2.0)"),
            ])
            return apt
        } catch {
            apt.remove()
            throw error
        }
    }
}
