"""locks: another process's dnf rpmdb lock or rpm transaction lock is error `locked`, naming
the holder; only this process's own lock files are removed on a forced exit."""

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from installtop_dnf.locks import check_locks, lock_paths, remove_own_locks
from installtop_dnf.protocol import HelperError


@pytest.fixture
def conf(tmp_path):
    root = tmp_path / 'root'
    (root / 'var/lib/rpm').mkdir(parents=True)
    persist = root / 'var/lib/dnf'
    persist.mkdir(parents=True)
    return SimpleNamespace(installroot=str(root), persistdir=str(persist),
                           cachedir=str(root / 'var/cache/dnf'))


def locked_message(conf):
    with pytest.raises(HelperError) as raised:
        check_locks(conf)
    assert raised.value.kind == 'locked'
    return raised.value.message


def test_no_lock_files_no_error(conf):
    check_locks(conf)


def test_the_rpmdb_lock_of_a_live_process_is_locked(conf):
    lock = os.path.join(conf.persistdir, 'rpmdb_lock.pid')
    with subprocess.Popen([sys.executable, '-c', 'import sys; sys.stdin.read()'],
                          stdin=subprocess.PIPE) as holder:
        with open(lock, 'w') as f:
            f.write('%d\n' % holder.pid)
        assert locked_message(conf) == 'RPMDB already locked by %d (%s)' % (holder.pid, lock)
        holder.stdin.close()
    # Its holder gone (a stale file), this process's own pid, or no pid: not locked.
    check_locks(conf)
    for text in (str(os.getpid()), 'garbage'):
        with open(lock, 'w') as f:
            f.write(text)
        check_locks(conf)


def test_rpms_transaction_lock_held_elsewhere_is_locked_with_its_holder(conf):
    lock = os.path.join(conf.installroot, 'var/lib/rpm/.rpm.lock')
    open(lock, 'w').close()
    code = ("import fcntl, sys\n"
            "f = open(sys.argv[1], 'w')\n"
            "fcntl.lockf(f, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "sys.stdin.read()\n")
    with subprocess.Popen([sys.executable, '-c', code, lock], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as holder:
        assert holder.stdout.readline() == 'held\n'
        assert locked_message(conf) == 'rpm transaction lock %s is held by %d' % (lock, holder.pid)
        holder.stdin.close()
    check_locks(conf)


def test_only_own_lock_files_are_removed(conf, tmp_path):
    paths = lock_paths(conf)
    assert paths == [conf.cachedir + '/metadata_lock.pid', conf.cachedir + '/download_lock.pid',
                     conf.persistdir + '/rpmdb_lock.pid']
    mine, theirs = tmp_path / 'mine.pid', tmp_path / 'theirs.pid'
    mine.write_text('%d\n' % os.getpid())
    theirs.write_text('1\n')
    remove_own_locks([str(mine), str(theirs), str(tmp_path / 'missing.pid')])
    assert not mine.exists() and theirs.exists()
