"""Progress reporting: dnf's download callbacks and rpm's transaction callbacks as the
download, downloaded, progress, scriptlet-output and scriptlet-error events."""

import logging
import sys
import time

import dnf.callback
import rpm

from .capture import DescriptorCapture

# Download and rpm progress: at most one event per package in this time (and its last one).
PROGRESS_INTERVAL = 0.1


class DownloadReporter(dnf.callback.DownloadProgress):
    """dnf's download callbacks as download/downloaded events, throttled per package."""

    def __init__(self, events):
        super().__init__()
        self._events = events
        self._last = {}

    def start(self, total_files, total_size, total_drpms=0):
        pass

    def progress(self, payload, done):
        pkg = payload.pkg
        done = int(done)  # librepo counts in a double
        now = time.monotonic()
        total = payload.download_size
        last_time, last_done = self._last.get(pkg, (0.0, None))
        if done == last_done:
            return
        if done >= total or now - last_time >= PROGRESS_INTERVAL:
            self._last[pkg] = (now, done)
            self._events.emit('download', name=pkg.name, arch=pkg.arch, done=done, total=total)

    def end(self, payload, status, msg):
        if status == dnf.callback.STATUS_MIRROR:
            return  # one mirror failed; librepo goes on with the next one
        pkg = payload.pkg
        ok = status in (dnf.callback.STATUS_OK, dnf.callback.STATUS_ALREADY_EXISTS)
        total = payload.download_size
        if ok and self._last.get(pkg, (0.0, None))[1] != total:
            self._events.emit('download', name=pkg.name, arch=pkg.arch, done=total, total=total)
        self._events.emit('downloaded', name=pkg.name, arch=pkg.arch, ok=ok,
                          message=None if ok else msg)


PROGRESS_WORDS = {dnf.callback.PKG_INSTALL: 'install', dnf.callback.PKG_UPGRADE: 'upgrade',
                  dnf.callback.PKG_DOWNGRADE: 'downgrade', dnf.callback.PKG_REINSTALL: 'reinstall',
                  dnf.callback.PKG_OBSOLETE: 'install', dnf.callback.PKG_REMOVE: 'remove',
                  dnf.callback.PKG_OBSOLETED: 'obsoleted', dnf.callback.PKG_UPGRADED: 'cleanup',
                  dnf.callback.PKG_DOWNGRADED: 'cleanup', dnf.callback.PKG_REINSTALLED: 'cleanup',
                  dnf.callback.PKG_CLEANUP: 'cleanup', dnf.callback.PKG_VERIFY: 'verify',
                  dnf.callback.PKG_SCRIPTLET: 'scriptlet',
                  dnf.callback.TRANS_PREPARATION: 'prepare', dnf.callback.TRANS_POST: 'posttrans'}
# rpm's scriptlet tags as spec files name them; the others are the tag name in lower case.
SCRIPTLET_NAMES = {'PREIN': '%pre', 'POSTIN': '%post'}


def scriptlet_name(tag):
    """%pre, %post, %preun, %posttrans, %triggerin... from rpm's tag name (PREIN, POSTUN...)."""
    return SCRIPTLET_NAMES.get(tag, '%' + tag.lower())


class RpmReporter(dnf.callback.TransactionProgress):
    """Reports rpm's transaction: dnf's TransactionProgress display plus a wrapper around the
    raw rpm callback that dnf hands to rpm (see HelperBase._run_transaction).

    The wrapper knows what dnf's display is not told: which transaction element rpm works on,
    the scriptlet tag (which scriptlet runs), whether a failing scriptlet was fatal, when rpm
    opens a package's file to install it (read) and when it begins to erase one (erase), so that a package's bar can move through
    each phase even when rpm writes all of a small payload at once. Nothing may escape from
    here: rpm-python exits the process when an rpm callback raises. Note that rpm runs
    scriptlet callbacks chrooted into the installroot: no file is opened by name here.
    """

    def __init__(self, events):
        super().__init__()
        self._events = events
        self.elements = []
        self.owner = (None, None)
        self._scriptlet_word = 'scriptlet'
        self._scriptlet_name = None
        # rpm verified every package and prepared the transaction (TRANS_STOP): what follows
        # is its elements.
        self._in_elements = False
        self.errors = []
        self.captures = {}
        self._last_progress = {}

    # -- the raw rpm callback --

    def wrap(self, dnf_callback):
        def callback(what, amount, total, key, data):
            try:
                self._before(what, amount, key)
            except Exception as e:
                print('installtop-dnf: rpm callback: %r' % e, file=sys.stderr)
            result = dnf_callback(what, amount, total, key, data)
            try:
                if what == rpm.RPMCALLBACK_SCRIPT_ERROR:
                    self._scriptlet_error(amount, total)
            except Exception as e:
                print('installtop-dnf: rpm callback: %r' % e, file=sys.stderr)
            return result
        return callback

    def _before(self, what, amount, key):
        # What was printed so far belongs to the package rpm worked on until now.
        self.flush_output()
        if what == rpm.RPMCALLBACK_ELEM_PROGRESS and 0 <= amount < len(self.elements):
            element = self.elements[amount]
            self.owner = (element.N(), element.A())
            if element.Type() == rpm.TR_REMOVED:
                # An erase has no file to read: its element's start is its first step.
                self._events.emit('progress', name=self.owner[0], arch=self.owner[1], action='erase',
                                  done=None, total=None, step=None, steps=None)
        elif hasattr(key, 'pkg'):
            self.owner = (key.pkg.name, key.pkg.arch)
        if what == rpm.RPMCALLBACK_TRANS_STOP:
            self._in_elements = True
        if what == rpm.RPMCALLBACK_SCRIPT_START:
            tag = rpm.tagnames.get(amount, '')
            self._scriptlet_word = 'trigger' if 'TRIGGER' in tag else 'scriptlet'
            self._scriptlet_name = scriptlet_name(tag) if tag else None
        elif what == rpm.RPMCALLBACK_INST_OPEN_FILE and self._in_elements and self.owner[0]:
            # rpm opens the file of the element it begins, just before its ELEM_PROGRESS (it
            # opened every one before, when it verified them all: not a step of one package).
            self._events.emit('progress', name=self.owner[0], arch=self.owner[1], action='read',
                              done=None, total=None, step=None, steps=None)

    def _scriptlet_error(self, tag, rc):
        scriptlet = scriptlet_name(rpm.tagnames.get(tag, 'UNKNOWN'))
        fatal = rc != rpm.RPMRC_OK
        name, arch = self.owner
        self._events.emit('scriptlet-error', name=name, arch=arch, scriptlet=scriptlet,
                          fatal=fatal, message='%s scriptlet of %s.%s failed%s' % (
                              scriptlet, name, arch,
                              '' if fatal else ' (rpm went on: the package is in place)'))

    def flush_output(self):
        for stream, capture in self.captures.items():
            self._output_lines(capture.read_lines(), stream)

    def _output_lines(self, lines, stream='stdout'):
        name, arch = self.owner
        for line in lines:
            self._events.emit('scriptlet-output', name=name, arch=arch, text=line, stream=stream)

    def start_capture(self):
        self.captures = {'stdout': DescriptorCapture(1), 'stderr': DescriptorCapture(2)}

    def stop_capture(self):
        captures, self.captures = self.captures, {}
        for stream, capture in captures.items():
            self._output_lines(capture.close(), stream)

    # -- dnf's TransactionProgress --

    def progress(self, package, action, ti_done, ti_total, ts_done, ts_total):
        word = PROGRESS_WORDS.get(action, str(action))
        if action == dnf.callback.PKG_SCRIPTLET:
            word = self._scriptlet_word
        named = hasattr(package, 'name')
        # rpm reports every chunk of a package's files; a first, a last, and 10 a second do.
        key = (package.name, package.arch, word) if named else (None, None, word)
        now = time.monotonic()
        last = self._last_progress.get(key)
        finished = ti_done is None or ti_total is None or ti_done >= ti_total
        if last is not None and not finished and now - last < PROGRESS_INTERVAL:
            return
        self._last_progress[key] = now
        extra = {}
        if action == dnf.callback.PKG_SCRIPTLET and self._scriptlet_name is not None:
            extra['scriptlet'] = self._scriptlet_name
        self._events.emit('progress', name=package.name if named else None,
                          arch=package.arch if named else None, action=word,
                          done=ti_done, total=ti_total, step=ts_done, steps=ts_total, **extra)

    def scriptout(self, msgs):
        if msgs:
            text = msgs.decode('utf-8', 'replace') if isinstance(msgs, bytes) else msgs
            self._output_lines(text.splitlines())

    def error(self, message):
        self.errors.append(message)


class RpmErrorLog(logging.Handler):
    """dnf logs, rather than raises, why rpm's transaction could not start (rpm's own
    messages among them): after rpm-start, what dnf logs as an error goes to rpm-end."""

    def __init__(self, reporter, stop):
        super().__init__(logging.ERROR)
        self._reporter = reporter
        self._stop = stop

    def emit(self, record):
        if self._stop.stage == 'rpm':
            self._reporter.errors.append(record.getMessage())
