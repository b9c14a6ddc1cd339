"""stop: SIGINT and SIGTERM taken by the signal thread. Before rpm-start a stop ends the work at
its next step (Stopped) or, when the work does not get there in time, the process (stopped,
exit 3); after rpm-start it is deferred (stop-deferred, once). Each case runs in a python3 of
its own: the signals are blocked process-wide and the forced exit ends the process."""

import json

from conftest import run_helper_python

PRELUDE = ("import os, signal, sys, time\n"
           "from installtop_dnf import stop as stop_module\n"
           "from installtop_dnf.protocol import EventWriter\n"
           "from installtop_dnf.stop import StopControl, Stopped\n"
           "STOP = StopControl(EventWriter())\n"
           "def wait_for(condition):\n"
           "    deadline = time.monotonic() + 10\n"
           "    while not condition():\n"
           "        if time.monotonic() > deadline: sys.exit('timed out')\n"
           "        time.sleep(0.01)\n")


def events_of(child):
    return [json.loads(line) for line in child.stdout.splitlines() if line.startswith('{')]


def test_a_stop_before_rpm_ends_the_work_at_its_next_step():
    code = PRELUDE + (
        "STOP.enter('download', event='planned', count=1)\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "wait_for(lambda: STOP._requested)\n"
        "try:\n"
        "    STOP.checkpoint()\n"
        "    print('not stopped')\n"
        "except Stopped:\n"
        "    STOP.tell_stopped()\n"
        "    STOP.tell_stopped()\n"  # told once, whoever tells it
        "try:\n"
        "    STOP.enter('rpm', event='rpm-start', count=1)\n"
        "except Stopped:\n"
        "    print('rpm not entered, stage', STOP.stage)\n")
    child = run_helper_python(code)
    assert child.returncode == 0, child.stderr
    assert events_of(child) == [{'event': 'planned', 'count': 1},
                                {'event': 'stopped', 'before': 'download'}]
    assert 'rpm not entered, stage download' in child.stdout
    assert 'not stopped' not in child.stdout


def test_sigint_is_a_stop_too_and_the_stage_is_resolve_at_first():
    code = PRELUDE + (
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "wait_for(lambda: STOP._requested)\n"
        "STOP.tell_stopped()\n")
    child = run_helper_python(code)
    assert child.returncode == 0, child.stderr
    assert events_of(child) == [{'event': 'stopped', 'before': 'resolve'}]


def test_after_rpm_start_a_stop_is_deferred_and_said_once():
    code = PRELUDE + (
        "STOP.enter('rpm', event='rpm-start', count=2)\n"
        "for _ in range(2):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "wait_for(lambda: STOP._deferred_told)\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        # Taken by the signal thread, which then holds the lock while it decides.
        "wait_for(lambda: not signal.sigpending())\n"
        "with STOP._lock: pass\n"
        "STOP.checkpoint()\n"
        "print('rpm went on')\n")
    child = run_helper_python(code)
    assert child.returncode == 0, child.stderr
    assert events_of(child) == [{'event': 'rpm-start', 'count': 2}, {'event': 'stop-deferred'}]
    assert 'rpm went on' in child.stdout


def test_work_stuck_past_the_grace_ends_the_process_with_stopped_and_cleanups():
    code = PRELUDE + (
        "stop_module.STOP_GRACE_SECONDS = 0.2\n"
        "STOP.on_forced_exit(lambda: print('cleanup one', flush=True))\n"
        "STOP.on_forced_exit(lambda: 1 / 0)\n"  # a failing cleanup does not keep the others
        "STOP.on_forced_exit(lambda: print('cleanup three', flush=True))\n"
        "STOP.enter('download')\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "time.sleep(30)\n"  # a step that cannot be interrupted
        "print('never')\n")
    child = run_helper_python(code)
    assert child.returncode == 3
    assert events_of(child) == [{'event': 'stopped', 'before': 'download'}]
    assert 'cleanup one' in child.stdout and 'cleanup three' in child.stdout
    assert 'never' not in child.stdout
    assert 'installtop-dnf: cleanup on stop failed: division by zero' in child.stderr


def test_a_signal_ignored_by_the_parent_still_reaches_the_helper():
    code = ("import os, signal, subprocess, sys\n"
            "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "child = subprocess.run([sys.executable, '-c', %r])\n"
            "sys.exit(child.returncode)\n") % (PRELUDE + (
                "os.kill(os.getpid(), signal.SIGTERM)\n"
                "wait_for(lambda: STOP._requested)\n"
                "STOP.tell_stopped()\n"))
    child = run_helper_python(code)
    assert child.returncode == 0, child.stderr
    assert events_of(child) == [{'event': 'stopped', 'before': 'resolve'}]
