"""What a stop (SIGINT, SIGTERM) means at each stage: the signal thread, the stages, and the
forced exit when the work does not reach its next step in time. Imports nothing of dnf or rpm:
the entry script blocks the signals before anything (dnf, librepo) starts a thread."""

import os
import signal
import sys
import threading
import time

from .protocol import EXIT_STOPPED

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
# How long a stop before rpm-start waits for the work to reach its next step.
STOP_GRACE_SECONDS = 3.0


class Stopped(Exception):
    """A stop came before rpm-start: the helper ends with the stopped event (exit 3)."""


class StopControl:
    """Takes SIGINT and SIGTERM in a thread of its own and decides what a stop means now.

    The signals are blocked before any other thread exists, so every thread inherits the
    mask and only sigwait receives them: librepo's SIGINT handler (installed during
    downloads) never runs, rpm's signal blocking during its transaction changes nothing,
    and no KeyboardInterrupt can land inside a callback that C code called (an exception
    escaping rpm's callback makes rpm-python exit the process mid-transaction; one escaping
    a libdnf download callback crosses C++ and C frames).
    """

    def __init__(self, events):
        self._events = events
        self._lock = threading.Lock()
        self.stage = 'resolve'
        self._requested = False
        self._deferred_told = False
        self._stopped_told = False
        self._cleanups = []
        self.librepo_interrupt = None
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        # A signal whose disposition is "ignore" (as inherited from some parents) is discarded,
        # blocked or not, and would never reach sigwait.
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)
        threading.Thread(target=self._wait, name='signals', daemon=True).start()

    def on_forced_exit(self, cleanup):
        """Registers work to do when a stop has to end the process without the main thread."""
        self._cleanups.append(cleanup)

    def _wait(self):
        while True:
            signal.sigwait(STOP_SIGNALS)
            with self._lock:
                if self.stage == 'rpm':
                    if not self._deferred_told:
                        self._deferred_told = True
                        self._events.emit('stop-deferred')
                    continue
                if self._requested:
                    continue
                self._requested = True
            if self.librepo_interrupt is not None:
                self.librepo_interrupt.value = 1
            threading.Thread(target=self._force_exit_later, name='stop-grace', daemon=True).start()

    def _force_exit_later(self):
        time.sleep(STOP_GRACE_SECONDS)
        self.tell_stopped()
        for cleanup in self._cleanups:
            try:
                cleanup()
            except Exception as e:  # the process ends now whatever happens
                print('installtop-dnf: cleanup on stop failed: %s' % e, file=sys.stderr)
        os._exit(EXIT_STOPPED)

    def tell_stopped(self):
        with self._lock:
            if self._stopped_told:
                return
            self._stopped_told = True
            self._events.emit('stopped', before=self.stage)

    def checkpoint(self):
        """Ends the work here (Stopped) when a stop came."""
        with self._lock:
            if self._requested:
                raise Stopped()

    def enter(self, stage, **event):
        """Moves to a stage, unless a stop came; the stage's event (if any) is emitted with it,
        so that the signal thread sees the stage and the event together."""
        with self._lock:
            if self._requested:
                raise Stopped()
            self.stage = stage
            if event:
                self._events.emit(**event)
