/// How long the end-to-end tests wait for an ansible play (plain `ansible-playbook` or
/// `installtop ansible`). A play reports as it goes, so a hung one is told by its silence; the
/// total is only a ceiling. On a loaded CI machine beside the other suites a play slows many
/// times over while it still makes progress: a 6 s play took over 120 s, and a task of
/// `/bin/true` on a local host 12-16 s, which put `--forks 2` over 8 hosts and 4 tasks past
/// a 180 s total while its events came every few seconds.
enum AnsiblePlay {
    /// Killed as hung once it wrote nothing for this long.
    static let silence: Duration = .seconds(150)
    /// Killed however it goes after this long.
    static let ceiling: Duration = .seconds(900)
}
