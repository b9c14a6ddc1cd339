"""pytest's setup for the dnf helper's modules: the helper's folder on sys.path, the stand-ins
for dnf's and rpm's bindings (fake_bindings) in sys.modules before any helper module loads, and
the fixtures the tests share."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
HELPER = os.path.normpath(os.path.join(HERE, '..', '..', 'Sources', 'InstallDrivers', 'DNF', 'Helper'))

# The modules stay as they are in the source tree: no __pycache__ beside them (the embedding
# skips it, but the worktree stays clean).
sys.dont_write_bytecode = True
sys.path.insert(0, HELPER)
sys.path.insert(0, HERE)

import fake_bindings  # noqa: E402

fake_bindings.install()


class RecordedEvents:
    """An EventWriter's stand-in: every event as the dict the writer would serialize."""

    def __init__(self):
        self.events = []

    def emit(self, event, **fields):
        self.events.append(dict(event=event, **fields))

    def error(self, kind, message):
        self.emit('error', kind=kind, message=message)

    def named(self, event):
        return [e for e in self.events if e['event'] == event]


class FakeStop:
    """StopControl's stand-in for the work's side: a stage, and a stop that can be requested."""

    def __init__(self, stage='resolve'):
        self.stage = stage
        self.requested = False
        self.cleanups = []

    def checkpoint(self):
        from installtop_dnf.stop import Stopped
        if self.requested:
            raise Stopped()

    def on_forced_exit(self, cleanup):
        self.cleanups.append(cleanup)


@pytest.fixture
def events():
    return RecordedEvents()


@pytest.fixture
def stop():
    return FakeStop()


def run_helper_python(code, pass_fds=(), timeout=20, **popen):
    """Runs code in a python3 of its own with the helper's package importable (and nothing of
    dnf needed), for what only a process can show: descriptors, signals, exiting.
    Returns the CompletedProcess (text output)."""
    environment = dict(os.environ, PYTHONPATH=HELPER, PYTHONDONTWRITEBYTECODE='1')
    return subprocess.run([sys.executable, '-c', code], pass_fds=pass_fds, timeout=timeout,
                          env=environment, capture_output=True, text=True, **popen)
