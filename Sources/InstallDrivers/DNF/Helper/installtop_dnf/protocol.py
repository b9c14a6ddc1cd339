"""The protocol's writing side: the exit statuses, the error that ends the helper with an error
event, and the writer of the JSON Lines (the protocol itself is the header of installtop-dnf.py).
Imports nothing of dnf or rpm: the entry script uses it before they are imported."""

import json
import os
import threading

EXIT_OK, EXIT_FAILED, EXIT_ERROR, EXIT_STOPPED = 0, 1, 2, 3


class HelperError(Exception):
    """Ends the helper with an error event of this kind (exit 2)."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


class EventWriter:
    """Writes the protocol's JSON Lines; both the main thread and the signal thread write."""

    def __init__(self):
        try:
            os.fstat(3)
            fd = 3
        except OSError:
            # A copy of standard output: the transaction redirects descriptor 1 for a while.
            fd = os.dup(1)
        self._file = os.fdopen(fd, 'w', buffering=1, encoding='utf-8')
        self._lock = threading.Lock()
        self._broken = False

    def emit(self, event, **fields):
        line = json.dumps(dict(event=event, **fields), ensure_ascii=False, separators=(',', ':'))
        with self._lock:
            if self._broken:
                return
            try:
                self._file.write(line + '\n')
                self._file.flush()
            except OSError:
                # installtop is gone; the work goes on as it was confirmed.
                self._broken = True

    def error(self, kind, message):
        self.emit('error', kind=kind, message=message)
