import TerminalUI

/// The board's rollout keys (`MonitorKeyMap` adds them on the board only).
enum RolloutKeys {
    static let bindings = [
        KeyBinding([.character("m")], .markHost, help: "m", "mark or unmark the selected host for an upgrade"),
        KeyBinding([.character("M")], .markShownHosts, help: "M", "mark every host shown (all marked: clear the marks)"),
        KeyBinding([.character("U")], .upgradeMarkedHosts, help: "U",
                   "apt upgrade the marked hosts (else the selected one): their plans, then a few at a time; paused: continue",
                   footer: "U upgrade", footerIfRoom: true),
        KeyBinding([.character("D")], .fullUpgradeMarkedHosts, help: "D",
                   "apt full-upgrade the marked hosts (else the selected one): new and removed packages too, removals first in the plans"),
        KeyBinding([.character("X")], .stopRollout, help: "X", "stop the rollout: hosts not started are declined, running ones go on"),
        KeyBinding([.character("W")], .cycleConfirmWindow, help: "W",
                   "arm U and D: off, 5m, 15m, 1h (each host's upgrade undone on the host unless kept in time)"),
        KeyBinding([.character("L")], .toggleConfirmByLogin, help: "L",
                   "keep an armed host once a fresh ssh login to it works and no check regressed"),
    ]
}
