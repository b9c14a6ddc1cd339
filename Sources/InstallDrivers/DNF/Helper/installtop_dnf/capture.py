"""What rpm's scriptlets write on descriptors 1 and 2, caught in files while rpm runs."""

import ctypes
import os
import tempfile


class DescriptorCapture:
    """A descriptor (1 or 2) goes to a temporary file while rpm's transaction runs.

    rpm (4.18 and older) has Lua scriptlets print() to the C library's stdout, not to dnf's
    script file, and io.stderr:write() goes to descriptor 2: left alone, it would reach
    installtop on a pipe of its own, which installtop reads apart from the events, so its lines
    could not be told from which package they came (a fast transaction's next package is begun
    before they are read). A file, unlike a pipe, can never fill up and block a scriptlet; it is
    read (with pread: the writer's offset is left alone) at every rpm callback, after flushing
    the C library's buffers, so that what a scriptlet wrote is read before rpm moves on.
    """

    def __init__(self, fd):
        self._fd = fd
        self._libc = ctypes.CDLL(None)
        self._libc.fflush(None)
        self._saved = os.dup(fd)
        self._file = tempfile.TemporaryFile()
        os.dup2(self._file.fileno(), fd)
        self._offset = 0
        self._partial = b''

    def read_lines(self, final=False):
        self._libc.fflush(None)
        data = self._partial
        while True:
            chunk = os.pread(self._file.fileno(), 65536, self._offset)
            if not chunk:
                break
            self._offset += len(chunk)
            data += chunk
        lines = data.split(b'\n')
        self._partial = lines.pop()  # an unfinished line waits for its end
        if final and self._partial:
            lines.append(self._partial)
            self._partial = b''
        return [line.decode('utf-8', 'replace') for line in lines]

    def close(self):
        lines = self.read_lines(final=True)
        os.dup2(self._saved, self._fd)
        os.close(self._saved)
        self._file.close()
        return lines
