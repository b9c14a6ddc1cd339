extension APTTestRoot {
    /// A root in the shape of `apt install chrony` on Debian, for the plan's tests: `lab-core`
    /// (Essential) 1.0 and `lab-timesyncd` installed, `lab-core` 2.0 published, and
    /// `lab-chrony`, which needs `lab-core (>= 2.0)` and conflicts with `lab-timesyncd`.
    /// Installing `lab-chrony` installs it, upgrades an Essential package and removes one.
    public static func chronyShape() throws -> APTTestRoot {
        let apt = try APTTestRoot()
        do {
            try apt.publish([TestPackage(name: "lab-core", essential: true), TestPackage(name: "lab-timesyncd")])
            try apt.aptGet(["-y", "install", "lab-core", "lab-timesyncd"], check: true)
            try apt.publish([
                TestPackage(name: "lab-core", version: "2.0", essential: true),
                TestPackage(name: "lab-chrony", depends: "lab-core (>= 2.0)", conflicts: "lab-timesyncd"),
            ])
            return apt
        } catch {
            apt.remove()
            throw error
        }
    }
}
