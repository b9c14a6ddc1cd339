import InstallDrivers
import InstallEngine

/// The shell scripts `enroll` and `hosts check` run on each host through ssh, and the command
/// lines that run them. Only a POSIX shell, apt, dpkg and (for the unit) systemctl are needed on
/// the host: installtop itself may not be there yet. Each script reports on stdout in lines
/// `installtop-enroll: WORD …` (`HostReportLine`); the rest of its stdout and stderr is the
/// commands' own words, kept apart in files and shown only when a step fails.
///
/// Every path the scripts use comes from apt's configuration on the host (`apt-config`), so
/// that `--apt-config` moves the package, dpkg's database, the hooks and the installtop that
/// runs into another root (a chroot, a test's private root) as `serve --apt-config` does.
enum HostSetupScript {
    /// Finds the host's apt root and installtop in it; shared by both scripts. Sets `admin`
    /// (dpkg's database folder) and `bin` (the installtop apt's root holds).
    private static let prelude = #"""
        set -u
        apt_config=$1
        export DEBIAN_FRONTEND=noninteractive LC_ALL=C
        say() { printf 'installtop-enroll: %s\n' "$*"; }
        # apt-config only warns about an APT_CONFIG it cannot read, and then names this system's
        # own root: that would put everything there.
        if [ -n "$apt_config" ] && [ ! -r "$apt_config" ]; then
            say fact apt "cannot read $apt_config as $(id -un 2>/dev/null || id -u)"
            exit 0
        fi
        if [ -n "$apt_config" ]; then export APT_CONFIG="$apt_config"; fi
        # Its stdout alone is evaluated; its words, when it fails, are the fact.
        if ! settings=$(apt-config shell root Dir status Dir::State::status/f 2>/dev/null); then
            say fact apt "$(apt-config shell root Dir 2>&1 >/dev/null | tail -n 1)"
            exit 0
        fi
        eval "$settings"
        root=${root:-/}
        admin=${status%/status}
        bin="${root%/}/usr/bin/installtop"
        package() { dpkg-query --admindir="$admin" -W -f='${db:Status-Abbrev}|${Version}' installtop 2>/dev/null; }
        hooks() {
            if [ -n "$apt_config" ]; then "$bin" hooks "$1" --apt-config "$apt_config"; else "$bin" hooks "$1"; fi
        }
        # The unit's engine's pid when it runs an installtop dpkg has replaced since it started
        # (the package's postinst never restarts it), else nothing.
        replaced() {
            [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1 || return 0
            pid=$(systemctl show -p MainPID --value "$1" 2>/dev/null)
            case $(readlink "/proc/${pid:-0}/exe" 2>/dev/null) in *" (deleted)") echo "$pid" ;; esac
        }
        """#

    /// Says what the host has, one `fact` line each: `apt ok` (or apt's words), `user UID NAME`
    /// (whom the steps would run as), `package STATE
    /// VERSION` (dpkg's, or `none`), `binary VERSION` (what installtop says, or `none`), `unit
    /// ENABLED ACTIVE` (systemctl's words, or `none` without systemd), `engine yes`, `engine
    /// no WORDS` or `engine refuses WORDS` (it runs but does not admit this user), `replaced
    /// PID` when the unit's engine runs an installtop dpkg has replaced since, `hooks yes` or
    /// `hooks no`; then `end`. Changes nothing.
    /// Arguments: the apt configuration (empty for the system's), the engine's socket, the unit.
    static let probe = prelude + "\n" + #"""
        socket=$2
        unit=$3
        say fact apt ok
        say fact user "$(id -u) $(id -un 2>/dev/null)"
        state=$(package) || state=
        if [ -n "$state" ]; then say fact package ${state%%|*} "${state#*|}"; else say fact package none; fi
        if [ -x "$bin" ]; then say fact binary "$("$bin" --version 2>&1 | tail -n 1)"; else say fact binary none; fi
        if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
            say fact unit "$(systemctl is-enabled "$unit" 2>&1 | tail -n 1)" "$(systemctl is-active "$unit" 2>&1 | tail -n 1)"
        else
            say fact unit none
        fi
        if [ ! -x "$bin" ]; then
            say fact engine no "$bin is not there"
        elif words=$("$bin" status --socket "$socket" 2>&1 >/dev/null); then
            say fact engine yes
        else
            # An engine that keeps this user out still runs: the fix is another user, not the unit.
            case $words in
            *"admits only"*) say fact engine refuses "$(printf '%s' "$words" | tail -n 1)" ;;
            *) say fact engine no "$(printf '%s' "$words" | tail -n 1)" ;;
            esac
        fi
        stale=$(replaced "$unit")
        if [ -n "$stale" ]; then say fact replaced "$stale"; fi
        if [ -x "$bin" ] && hooks status >/dev/null 2>&1; then say fact hooks yes; else say fact hooks no; fi
        say end
        """#

    /// Puts installtop on the host, one step after the other, each checked before it is done
    /// (`already` when there is nothing to do) and verified after: `package` (the .deb read
    /// from stdin when a file name is given, installed with apt-get so that its Depends
    /// resolve; then dpkg's state and `installtop --version` must be ours), `engine` (the unit
    /// enabled and started, or restarted when it runs an installtop the package replaced and
    /// has no job to finish; or the engine command run; then the engine must answer on its
    /// socket within 30 s), `hooks` (`installtop hooks install`; then `hooks status`). Each step
    /// says `step NAME begin|done|already|failed TEXT`; a failed one is preceded by `words`
    /// lines, the last lines its command printed, and ends the script.
    /// Arguments: the apt configuration (empty for the system's), the engine's socket, the
    /// engine command (empty: the unit), the .deb's file name (empty: installed already), the
    /// package's Debian version, installtop's version, the unit.
    static let setup = prelude + "\n" + #"""
        socket=$2 engine_command=$3 deb=$4 debversion=$5 version=$6 unit=$7
        step() { say step "$@"; }
        words() { grep -v '^[[:space:]]*$' "$1" | tail -n 6 | while IFS= read -r line; do say words "$line"; done; }
        fail() { [ -f "$tmp/log" ] && words "$tmp/log"; step "$1" failed "$2"; exit 0; }
        # A session's TMPDIR may name a folder that is not there (yet); /var/tmp then.
        if ! tmp=$(mktemp -d 2>/dev/null || mktemp -d -p /var/tmp 2>&1); then say words "$tmp"; step package failed "mktemp -d failed"; exit 0; fi
        trap 'rm -rf "$tmp"' EXIT
        # apt reads a local .deb as its sandbox user: the folder and the file are readable.
        chmod 755 "$tmp"

        if [ -n "$deb" ]; then
            cat >"$tmp/$deb" || fail package "could not write $deb into $tmp"
            chmod 644 "$tmp/$deb"
            step package begin "apt-get install ./$deb"
            apt-get install -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
                "$tmp/$deb" >"$tmp/log" 2>&1 || fail package "apt-get install ./$deb failed"
        fi
        state=$(package) || state=
        [ "$state" = "ii |$debversion" ] ||
            fail package "dpkg has installtop ${state:-nowhere} where $debversion installed was expected"
        said=$("$bin" --version 2>&1 | tail -n 1)
        [ "$said" = "$version" ] || fail package "$bin --version says $said where $version was expected"
        if [ -n "$deb" ]; then step package done "installtop $debversion installed"; else step package already "installtop $debversion installed"; fi
        rm -f "$tmp/log"

        answers() { "$bin" status --socket "$socket" >"$tmp/engine" 2>&1; }
        started=
        if [ -z "$engine_command" ]; then
            if [ ! -d /run/systemd/system ] || ! command -v systemctl >/dev/null 2>&1; then
                step engine failed "systemd does not run on this host: $unit cannot be started"
                exit 0
            fi
            if [ "$(systemctl is-enabled "$unit" 2>&1)" = enabled ] && [ "$(systemctl is-active "$unit" 2>&1)" = active ] && answers; then
                if [ -z "$(replaced "$unit")" ]; then
                    step engine already "$unit enabled and active, answering on $socket"
                elif "$bin" status --socket "$socket" --json 2>/dev/null | grep -Eq '"state":"(queued|running|aborting)"'; then
                    # A restart would abort them: the operator chooses when.
                    step engine failed "$unit runs the installtop the package replaced and has jobs to finish"
                    exit 0
                else
                    step engine begin "systemctl restart $unit (it ran the installtop the package replaced)"
                    systemctl restart "$unit" >"$tmp/log" 2>&1 || fail engine "systemctl restart $unit failed"
                    started=1
                fi
            else
                step engine begin "systemctl enable --now $unit"
                systemctl enable --now "$unit" >"$tmp/log" 2>&1 || fail engine "systemctl enable --now $unit failed"
                started=1
            fi
        elif answers; then
            step engine already "an engine answers on $socket"
        else
            step engine begin "$engine_command"
            sh -c "$engine_command" </dev/null >"$tmp/log" 2>&1 || fail engine "the engine command failed"
            started=1
        fi
        if [ -n "$started" ]; then
            tries=0
            until answers; do
                tries=$((tries + 1))
                [ "$tries" -lt 150 ] || { cp "$tmp/engine" "$tmp/log"; fail engine "no engine answers on $socket 30 s after it was started"; }
                sleep 0.2
            done
            step engine done "answering on $socket"
        fi
        rm -f "$tmp/log"

        if hooks status >/dev/null 2>&1; then
            step hooks already "installed"
        else
            step hooks begin "installtop hooks install"
            hooks install >"$tmp/log" 2>&1 || fail hooks "installtop hooks install failed"
            hooks status >"$tmp/log" 2>&1 || fail hooks "installtop hooks status says they are not all there"
            step hooks done "installed"
        fi
        say end
        """#

    /// The command line ssh asks the host to run: `script` under `sh -c` with `arguments`, as
    /// root through `privilege` (`sudo -n`) when given. Every word is quoted for the remote
    /// shell, which reads the line once more.
    static func commandLine(_ script: String, arguments: [String], privilege: String?) -> String {
        let words = ["sh", "-c", script, "installtop-enroll"] + arguments
        return (privilege.map { $0 + " " } ?? "") + words.map(ShellQuoting.singleQuoted).joined(separator: " ")
    }
}
