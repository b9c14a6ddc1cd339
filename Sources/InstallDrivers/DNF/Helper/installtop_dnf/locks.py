"""dnf's and rpm's locks: looked at before the work (locked), and dnf's lock files of this
process removed when a stop ends it at once."""

import fcntl
import os
import struct

import dnf.lock
import rpm

from .protocol import HelperError


def lock_paths(conf):
    """dnf's lock files for this configuration (files holding the owner's pid)."""
    return [dnf.lock.build_metadata_lock(conf.cachedir, True).target,
            dnf.lock.build_download_lock(conf.cachedir, True).target,
            dnf.lock.build_rpmdb_lock(conf.persistdir, True).target]


def remove_own_locks(paths):
    for path in paths:
        try:
            with open(path) as lock:
                if lock.read(20).strip() != str(os.getpid()):
                    continue
            os.unlink(path)
        except OSError:
            pass


def check_locks(conf):
    """Fails (locked) when another process holds dnf's rpmdb lock or rpm's transaction lock.

    Both are only looked at, never taken: dnf takes its lock in do_transaction (exit_on_lock
    makes that fail at once too), rpm its lock in its transaction.
    """
    rpmdb_lock = dnf.lock.build_rpmdb_lock(conf.persistdir, True).target
    try:
        with open(rpmdb_lock) as lock:
            pid = int(lock.read(20))
    except (OSError, ValueError):
        pid = None
    if pid is not None and pid != os.getpid() and os.path.exists('/proc/%d' % pid):
        raise HelperError('locked', 'RPMDB already locked by %d (%s)' % (pid, rpmdb_lock))
    rpm_lock = os.path.join(conf.installroot, rpm.expandMacro('%{?_rpmlock_path}').lstrip('/'))
    try:
        fd = os.open(rpm_lock, os.O_RDONLY)
    except OSError:
        return
    try:
        # struct flock: l_type, l_whence, l_start, l_len, l_pid (F_GETLK fills in the holder)
        query = struct.pack('hhqqi', fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
        held, _, _, _, holder = struct.unpack('hhqqi', answer[:struct.calcsize('hhqqi')])
    finally:
        os.close(fd)
    if held != fcntl.F_UNLCK:
        raise HelperError('locked', 'rpm transaction lock %s is held by %d' % (rpm_lock, holder))
