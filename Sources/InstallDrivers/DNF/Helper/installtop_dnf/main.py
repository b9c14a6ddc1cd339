"""The helper's work once the request is read and dnf may be imported: logging, the reporter,
dnf's Base, and the exit status of every way it ends."""

import ctypes
import logging
import os
import sys

from .configuration import make_conf
from .progress import RpmErrorLog, RpmReporter
from .protocol import EXIT_ERROR, EXIT_FAILED, EXIT_STOPPED
from .stop import Stopped
from .transaction import HelperBase, error_of, plan_and_run


def main(events, stop, request):
    # Python's own words (dnf's logging, the helper's) go to a duplicate of descriptor 2, so
    # that what rpm's scriptlets write on descriptor 2 while rpm runs (DescriptorCapture) can
    # be told apart and given to their package; both reach installtop's standard error pipe.
    sys.stderr = os.fdopen(os.dup(2), 'w', buffering=1, encoding=sys.stderr.encoding,
                           errors=sys.stderr.errors)
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter('dnf: %(message)s'))
    logging.getLogger('dnf').addHandler(handler)
    try:
        stop.librepo_interrupt = ctypes.c_int.in_dll(ctypes.CDLL('librepo.so.0'), 'lr_interrupt')
    except (OSError, ValueError):
        print('installtop-dnf: librepo interrupt flag not found; a stop waits for downloads',
              file=sys.stderr)
    reporter = RpmReporter(events)
    logging.getLogger('dnf').addHandler(RpmErrorLog(reporter, stop))
    base = None
    try:
        conf, repo_setopts = make_conf(request)
        base = HelperBase(conf, reporter, stop)
        return plan_and_run(base, reporter, repo_setopts, request, events, stop)
    except Stopped:
        stop.tell_stopped()
        return EXIT_STOPPED
    except Exception as e:
        if stop.stage == 'rpm':
            # The helper failed after rpm ran: the system may have changed, so not exit 2.
            events.error('other', '%s: %s' % (type(e).__name__, e))
            return EXIT_FAILED
        try:
            stop.checkpoint()
        except Stopped:
            # The stop made dnf fail (an interrupted download): it is a stop, not an error.
            stop.tell_stopped()
            return EXIT_STOPPED
        kind, message = error_of(e)
        events.error(kind, message)
        return EXIT_ERROR
    finally:
        if base is not None:
            base.close()
