"""capture: what a scriptlet writes on a descriptor while rpm runs, read back line by line at
each callback, an unfinished line kept for later, and the descriptor given back at the end."""

import os

from installtop_dnf.capture import DescriptorCapture


def test_lines_are_read_as_they_end_and_the_descriptor_is_given_back(tmp_path):
    original = tmp_path / 'original'
    fd = os.open(original, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        capture = DescriptorCapture(fd)
        os.write(fd, b'first\nsecond line, not ended')
        assert capture.read_lines() == ['first']
        assert capture.read_lines() == []  # nothing new, the unfinished line waits
        os.write(fd, b' yet\n\xffbad byte\nlast without newline')
        assert capture.read_lines() == ['second line, not ended yet', '\ufffdbad byte']
        assert capture.close() == ['last without newline']
        os.write(fd, b'after\n')  # the descriptor is the file it was again
    finally:
        os.close(fd)
    assert original.read_bytes() == b'after\n'


def test_what_the_c_library_buffers_is_flushed_before_reading(tmp_path):
    # Lua's print() in rpm 4.18 writes through the C library's stdout, which buffers; a
    # capture of descriptor 1 flushes it before each read. Shown in a process of its own.
    from conftest import run_helper_python
    code = ("import ctypes, os\n"
            "from installtop_dnf.capture import DescriptorCapture\n"
            "libc = ctypes.CDLL(None)\n"
            "capture = DescriptorCapture(1)\n"
            "libc.printf(b'from lua\\n')\n"  # buffered: descriptor 1 is a file now
            "lines = capture.close()\n"
            "os.write(2, repr(lines).encode())\n")
    child = run_helper_python(code)
    assert child.returncode == 0
    assert child.stderr == "['from lua']"
    assert child.stdout == ''
