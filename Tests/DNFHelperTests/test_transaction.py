"""transaction: how rpm's run ends. Before rpm-start, dnf's refusal is error `check` (exit 2,
nothing changed); once rpm started, every error goes into rpm-end and the exit is 1; the final
events come from a fresh read of rpm's database."""

from types import SimpleNamespace

import dnf.exceptions
import libdnf.transaction as T
import pytest
import rpm

from conftest import FakeStop
from installtop_dnf import transaction
from installtop_dnf.items import Item
from installtop_dnf.progress import RpmReporter
from installtop_dnf.protocol import EXIT_FAILED, EXIT_OK, HelperError


class Database:
    """rpm.TransactionSet's stand-in over (name, arch, epoch, version, release) headers."""

    opened = []

    def __init__(self, headers):
        self._headers = headers

    def __call__(self, root):
        Database.opened.append(root)
        return self

    def dbMatch(self, tag, name):
        assert tag == 'name'
        for n, arch, epoch, version, release in self._headers:
            if n == name:
                yield {rpm.RPMTAG_ARCH: arch, rpm.RPMTAG_EPOCH: epoch,
                       rpm.RPMTAG_VERSION: version, rpm.RPMTAG_RELEASE: release}

    def closeDB(self):
        Database.opened.append('closed')


class Package:
    def __init__(self, name, arch='noarch'):
        self.name, self.arch = name, arch
        self.epoch, self.version, self.release = 0, '2.0', '1'
        self.downloadsize, self.reponame = 1, 'lab'


class Base:
    """dnf.Base's run: do_transaction raises `raises` (after moving the stage to rpm when
    `starts`), and the transaction's items have the given states."""

    def __init__(self, stop, raises=None, starts=True, states=()):
        self.conf = SimpleNamespace(installroot='/srv/root')
        self.transaction = [SimpleNamespace(state=state) for state in states]
        self._stop, self._raises, self._starts = stop, raises, starts

    def do_transaction(self, display):
        if self._starts:
            self._stop.stage = 'rpm'
        if self._raises is not None:
            raise self._raises


@pytest.fixture
def database(monkeypatch):
    db = Database([('a', 'noarch', None, '2.0', '1'), ('a', 'x86_64', None, '1.0', '1'),
                   ('b', 'noarch', 1, '3', '1'), ('b', 'noarch', None, '2', '1')])
    Database.opened = []
    monkeypatch.setattr(transaction.rpm, 'TransactionSet', db, raising=False)
    return db


ITEMS = [Item('upgrade', Package('a'), old='1.0-1', new='2.0-1'),
         Item('install', Package('b'), new='1:3-1'), Item('remove', Package('c'), old='1-1')]


def test_a_clean_run_ends_ok_with_what_rpms_database_holds(events, database):
    stop = FakeStop('download')
    status = transaction.run_transaction(Base(stop), RpmReporter(events), ITEMS, events, stop)
    assert status == EXIT_OK
    assert events.events == [
        dict(event='rpm-end', ok=True, errors=[]),
        dict(event='final', name='a', arch='noarch', installed=['2.0-1']),
        dict(event='final', name='b', arch='noarch', installed=['1:3-1', '2-1']),  # a duplicate
        dict(event='final', name='c', arch='noarch', installed=[])]
    assert Database.opened == ['/srv/root', 'closed']


def test_refused_before_rpm_starts_is_error_check(events, database):
    stop = FakeStop('download')
    base = Base(stop, raises=dnf.exceptions.Error(' Transaction test error:\n  file /x conflicts \n'),
                starts=False)
    with pytest.raises(HelperError) as raised:
        transaction.run_transaction(base, RpmReporter(events), ITEMS, events, stop)
    assert (raised.value.kind, raised.value.message) == (
        'check', 'Transaction test error:\n  file /x conflicts')
    assert events.events == []  # no rpm-end: rpm never ran


def test_a_lock_is_the_lock_error_not_a_check(events, database):
    stop = FakeStop('download')
    base = Base(stop, raises=dnf.exceptions.LockError('held'), starts=False)
    with pytest.raises(dnf.exceptions.LockError):
        transaction.run_transaction(base, RpmReporter(events), ITEMS, events, stop)


def test_after_rpm_start_every_error_is_in_rpm_end_and_the_exit_is_1(events, database):
    stop = FakeStop('download')
    reporter = RpmReporter(events)
    reporter.error('Error in POSTIN scriptlet in rpm package a')

    class FailedItem:
        state = T.TransactionItemState_ERROR

        def __str__(self):
            return 'b-1:3-1.noarch'

    base = Base(stop, raises=dnf.exceptions.Error('Could not run transaction.'))
    base.transaction = [FailedItem(), SimpleNamespace(state=T.TransactionItemState_DONE)]
    status = transaction.run_transaction(base, reporter, ITEMS[:1], events, stop)
    assert status == EXIT_FAILED
    assert events.events[0] == dict(event='rpm-end', ok=False, errors=[
        'Error in POSTIN scriptlet in rpm package a', 'Could not run transaction.',
        'rpm failed on b-1:3-1.noarch'])
    assert events.named('final') == [dict(event='final', name='a', arch='noarch',
                                          installed=['2.0-1'])]
