"""protocol: the JSON Lines on descriptor 3 (or standard output), exactly as installtop reads
them, and a writer that outlives a reader that went away."""

import json
import os

from conftest import run_helper_python

WRITE_TWO = ("from installtop_dnf.protocol import EventWriter\n"
             "w = EventWriter()\n"
             "w.emit('item', action='install', name='caf\\u00e9', arch='noarch', old=None, size=3)\n"
             "w.error('unknown', 'No match for argument: x\\ny')\n")


def run_with_descriptor_3(code, close_reader=False):
    """Runs code with descriptor 3 the write end of a pipe, as installtop starts the helper;
    returns the child and what came through the pipe (None when its reader was closed first).
    (pytest itself holds descriptor 3: the child moves its end there.)"""
    read, write = os.pipe()
    if close_reader:
        os.close(read)
    prefix = 'import os\nos.dup2(%d, 3)\nos.close(%d)\n' % (write, write)
    try:
        child = run_helper_python(prefix + code, pass_fds=(write,))
    finally:
        os.close(write)
    if close_reader:
        return child, None
    with os.fdopen(read, 'rb') as pipe:
        return child, pipe.read()


def test_events_go_to_descriptor_3_one_compact_line_each():
    child, data = run_with_descriptor_3(WRITE_TWO)
    assert child.returncode == 0, child.stderr
    assert child.stdout == ''  # nothing of the protocol on standard output when 3 is open
    # No spaces, the text as UTF-8 (not \u escapes), "event" first, one line per event.
    assert data == ('{"event":"item","action":"install","name":"café","arch":"noarch",'
                    '"old":null,"size":3}\n'
                    '{"event":"error","kind":"unknown","message":"No match for argument: x\\ny"}\n'
                    ).encode('utf-8')


def test_without_descriptor_3_events_go_to_standard_output():
    child = run_helper_python(WRITE_TWO)
    assert child.returncode == 0, child.stderr
    lines = child.stdout.splitlines()
    assert [json.loads(line)['event'] for line in lines] == ['item', 'error']
    assert json.loads(lines[1]) == {'event': 'error', 'kind': 'unknown',
                                    'message': 'No match for argument: x\ny'}


def test_standard_output_redirected_later_does_not_take_the_events():
    # The writer keeps a copy of descriptor 1 as it was: rpm's transaction points 1 at a file
    # (capture) for a while, and the events must still reach installtop.
    code = ("import os, tempfile\n"
            "from installtop_dnf.protocol import EventWriter\n"
            "w = EventWriter()\n"
            "f = tempfile.TemporaryFile()\n"
            "os.dup2(f.fileno(), 1)\n"
            "w.emit('rpm-start', count=2)\n")
    child = run_helper_python(code)
    assert child.returncode == 0, child.stderr
    assert child.stdout == '{"event":"rpm-start","count":2}\n'


def test_a_reader_gone_stops_the_writing_not_the_helper():
    code = ("from installtop_dnf.protocol import EventWriter\n"
            "w = EventWriter()\n"
            "w.emit('planned', count=1)\n"
            "w.emit('planned', count=2)\n"
            "print('still here', w._broken)\n")
    child, _ = run_with_descriptor_3(code, close_reader=True)  # installtop is gone
    assert child.returncode == 0, child.stderr
    assert child.stdout == 'still here True\n'
