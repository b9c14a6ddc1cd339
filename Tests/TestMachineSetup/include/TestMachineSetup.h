#ifndef TESTMACHINESETUP_H
#define TESTMACHINESETUP_H

// The test process prepares the machine once, as it starts, before any test: it runs
// `Scripts/install-prerequisites test` (the Debian packages the tests need, installed as root;
// ansible-core in .build/ansible-venv; unattended-upgrades unpacked in .build), so that
// `swift test` alone sets up a fresh machine. Linked into the test binary through
// TestProcessSupport; nothing needs to call it.

/// The script's exit status (0: everything the tests need is there), -1 when it could not be
/// started or was killed, or 0 when the package's Scripts folder was not found.
int tms_prerequisites_status(void);

#endif
