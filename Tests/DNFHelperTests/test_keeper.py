"""keeper: one kept or not-kept event per installed package the transaction takes away, in the
transaction's order and once per NEVRA, the reason in words when it cannot be kept, and
rpmbuild's first error as the reason a rebuild failed."""

import os
from types import SimpleNamespace

import libdnf.transaction as T
import pytest
import rpm

from conftest import FakeStop
from installtop_dnf import keeper as keeper_module
from installtop_dnf.keeper import Keeper, rebuild_workers
from installtop_dnf.rebuild import RebuildRefused
from installtop_dnf.stop import Stopped


class Package:
    def __init__(self, name, evr='1.0-1', arch='noarch', rpmdbid=1):
        self.name, self.arch, self.rpmdbid = name, arch, rpmdbid
        epoch, _, version_release = evr.rpartition(':')
        self.epoch = int(epoch or 0)
        self.version, self.release = version_release.split('-')


class ReadingSet:
    """rpm.TransactionSet for reading package headers: nothing here reads one."""

    def __init__(self, root, flags):
        self.root, self.flags = root, flags

    def setKeyring(self, keyring):
        pass


class Base:
    """A transaction whose installed headers (rpm's database, by rpmdbid) have no digests."""

    def __init__(self, tsis, root):
        self.transaction = tsis
        self.conf = SimpleNamespace(installroot=root, keepcache=False)
        self._ts = SimpleNamespace(dbMatch=lambda index, rpmdbid: iter(
            [{rpm.RPMTAG_SHA1HEADER: None, rpm.RPMTAG_SHA256HEADER: None}]))


@pytest.fixture(autouse=True)
def reading_set(monkeypatch):
    monkeypatch.setattr(keeper_module.rpm, 'TransactionSet', ReadingSet, raising=False)
    monkeypatch.setattr(keeper_module.rpm, 'keyring', lambda: None, raising=False)


def tsi(action, pkg):
    return SimpleNamespace(action=action, pkg=pkg)


def test_each_package_taken_away_once_in_order_and_why_it_is_not_kept(events, tmp_path):
    old_a, b, c = Package('a'), Package('b', '2:3-1', 'x86_64'), Package('c')
    tsis = [tsi(T.TransactionItemAction_UPGRADE, Package('a', '2.0-1')),
            tsi(T.TransactionItemAction_UPGRADED, old_a),
            tsi(T.TransactionItemAction_REMOVE, b),
            tsi(T.TransactionItemAction_INSTALL, Package('d')),  # nothing taken away
            tsi(T.TransactionItemAction_OBSOLETED, c),
            tsi(T.TransactionItemAction_REMOVE, Package('c'))]  # c again: told once
    folder = tmp_path / 'kept'
    Keeper(str(folder), events, FakeStop()).keep(Base(tsis, str(tmp_path)))
    assert events.events == [
        dict(event='not-kept', name='a', arch='noarch', evr='1.0-1',
             reason="rpm's database has no header digest of the installed a-1.0-1.noarch"),
        dict(event='not-kept', name='b', arch='x86_64', evr='2:3-1',
             reason="rpm's database has no header digest of the installed b-2:3-1.x86_64"),
        dict(event='not-kept', name='c', arch='noarch', evr='1.0-1',
             reason="rpm's database has no header digest of the installed c-1.0-1.noarch")]
    assert oct(os.stat(folder).st_mode & 0o777) == '0o700'  # made private, whatever the umask


def test_a_folder_that_cannot_be_made_is_every_packages_reason(events, tmp_path):
    blocker = tmp_path / 'file'
    blocker.write_text('')
    folder = str(blocker / 'kept')
    tsis = [tsi(T.TransactionItemAction_REMOVE, Package('a')),
            tsi(T.TransactionItemAction_REMOVE, Package('b'))]
    Keeper(folder, events, FakeStop()).keep(Base(tsis, str(tmp_path)))
    assert [e['reason'] for e in events.events] == [
        'cannot write %s: Not a directory' % folder] * 2


def test_a_stop_ends_keeping_and_is_no_reason(events, tmp_path):
    stop = FakeStop()
    stop.requested = True
    with pytest.raises(Stopped):
        Keeper(str(tmp_path / 'kept'), events, stop).keep(
            Base([tsi(T.TransactionItemAction_REMOVE, Package('a'))], str(tmp_path)))
    assert events.events == []


def rpmbuild_outcome(tmp_path, status, log, made=b''):
    work = tmp_path / 'work'
    work.mkdir()
    (work / 'rpmbuild.log').write_bytes(log)
    partial = tmp_path / 'partial'
    partial.write_bytes(made)
    rebuild = SimpleNamespace(child=SimpleNamespace(returncode=status), work=str(work),
                              partial=str(partial))
    try:
        Keeper._check_rpmbuild(rebuild)
    except RebuildRefused as refused:
        return str(refused)
    return None


def test_rpmbuilds_first_error_is_the_reason(tmp_path):
    log = b'warning: bogus date\nerror: File not found: /x\n\nerror: second\n'
    assert rpmbuild_outcome(tmp_path, 1, log) == 'rpmbuild failed: File not found: /x'


def test_without_an_error_line_rpmbuilds_last_words_or_its_status(tmp_path):
    assert rpmbuild_outcome(tmp_path, 1, b'Processing files\n  Killed  \n') == \
        'rpmbuild failed: Killed'
    (tmp_path / 'again').mkdir()
    assert rpmbuild_outcome(tmp_path / 'again', 137, b'') == \
        'rpmbuild failed: it ended with status 137 and said nothing'


def test_a_package_made_is_no_failure_but_an_empty_one_is(tmp_path):
    assert rpmbuild_outcome(tmp_path, 0, b'', made=b'\xed\xab\xee\xdb') is None
    (tmp_path / 'again').mkdir()
    assert rpmbuild_outcome(tmp_path / 'again', 0, b'') == \
        'rpmbuild failed: it ended with status 0 and said nothing'


def test_rebuilds_run_one_per_cpu_at_most_eight(monkeypatch):
    monkeypatch.setattr(keeper_module.os, 'sched_getaffinity', lambda pid: set(range(64)))
    assert rebuild_workers() == 8
    monkeypatch.setattr(keeper_module.os, 'sched_getaffinity', lambda pid: {3})
    assert rebuild_workers() == 1
