"""progress: dnf's download callbacks and rpm's transaction callbacks as events, with rpm's
actions in installtop's words, the throttle, and what the raw rpm callback adds (read, erase,
which scriptlet, whether its failure was fatal)."""

from types import SimpleNamespace

import dnf.callback as C
import pytest
import rpm

from conftest import FakeStop
from installtop_dnf import progress
from installtop_dnf.progress import (DownloadReporter, RpmErrorLog, RpmReporter,
                                     scriptlet_name)


class Clock:
    """time.monotonic as the test sets it."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(progress.time, 'monotonic', clock)
    return clock


class Package:
    """A package as dnf's callbacks hand it: hashable, by identity."""

    def __init__(self, name, arch='noarch'):
        self.name, self.arch = name, arch


def payload(name='lab-a', total=1000):
    return SimpleNamespace(pkg=Package(name), download_size=total)


def test_downloads_at_most_ten_a_second_and_always_the_last(events, clock):
    reporter = DownloadReporter(events)
    a = payload()
    reporter.progress(a, 0.0)
    clock.now += 0.05
    reporter.progress(a, 100.0)  # too soon
    clock.now += 0.06
    reporter.progress(a, 300.0)
    reporter.progress(a, 300.0)  # the same count: never twice
    clock.now += 0.01
    reporter.progress(a, 1000.0)  # the last one, however soon
    reporter.end(a, C.STATUS_OK, None)
    assert [(e['event'], e.get('done')) for e in events.events] == [
        ('download', 0), ('download', 300), ('download', 1000), ('downloaded', None)]
    assert events.events[-1] == dict(event='downloaded', name='lab-a', arch='noarch', ok=True,
                                     message=None)
    assert isinstance(events.events[1]['done'], int)  # librepo's double, as a count of bytes


def test_a_download_that_ends_says_its_total_once_and_a_failure_its_message(events, clock):
    reporter = DownloadReporter(events)
    reporter.end(payload('cached'), C.STATUS_ALREADY_EXISTS, None)
    reporter.end(payload('mirror'), C.STATUS_MIRROR, 'mirror 1 failed')  # librepo goes on
    reporter.end(payload('broken'), C.STATUS_FAILED, 'Curl error (404)')
    assert events.events == [
        dict(event='download', name='cached', arch='noarch', done=1000, total=1000),
        dict(event='downloaded', name='cached', arch='noarch', ok=True, message=None),
        dict(event='downloaded', name='broken', arch='noarch', ok=False, message='Curl error (404)')]


@pytest.mark.parametrize('tag, name', [('PREIN', '%pre'), ('POSTIN', '%post'),
                                       ('PREUN', '%preun'), ('POSTTRANS', '%posttrans'),
                                       ('TRIGGERIN', '%triggerin')])
def test_scriptlet_names_as_a_spec_says_them(tag, name):
    assert scriptlet_name(tag) == name


@pytest.mark.parametrize('action, word', [
    (C.PKG_INSTALL, 'install'), (C.PKG_OBSOLETE, 'install'), (C.PKG_UPGRADE, 'upgrade'),
    (C.PKG_DOWNGRADE, 'downgrade'), (C.PKG_REINSTALL, 'reinstall'), (C.PKG_REMOVE, 'remove'),
    (C.PKG_OBSOLETED, 'obsoleted'), (C.PKG_UPGRADED, 'cleanup'), (C.PKG_DOWNGRADED, 'cleanup'),
    (C.PKG_REINSTALLED, 'cleanup'), (C.PKG_CLEANUP, 'cleanup'), (C.PKG_VERIFY, 'verify'),
    (999, '999')])
def test_rpm_actions_in_installtops_words(events, clock, action, word):
    RpmReporter(events).progress(SimpleNamespace(name='a', arch='x86_64'), action, 5, 10, 1, 2)
    assert events.events == [dict(event='progress', name='a', arch='x86_64', action=word,
                                  done=5, total=10, step=1, steps=2)]


def test_transaction_steps_have_no_package(events, clock):
    reporter = RpmReporter(events)
    reporter.progress(None, C.TRANS_PREPARATION, 1, 3, None, None)
    reporter.progress(None, C.TRANS_POST, None, None, None, None)
    assert [(e['name'], e['action'], e['done']) for e in events.events] == [
        (None, 'prepare', 1), (None, 'posttrans', None)]


def test_rpm_progress_is_throttled_per_package_and_action(events, clock):
    reporter = RpmReporter(events)
    a, b = SimpleNamespace(name='a', arch='noarch'), SimpleNamespace(name='b', arch='noarch')
    reporter.progress(a, C.PKG_INSTALL, 0, 100, 1, 2)
    reporter.progress(a, C.PKG_INSTALL, 10, 100, 1, 2)  # dropped: too soon
    reporter.progress(b, C.PKG_INSTALL, 0, 100, 2, 2)  # another package: its own first
    reporter.progress(a, C.PKG_INSTALL, 100, 100, 1, 2)  # the last: always
    clock.now += 0.2
    reporter.progress(a, C.PKG_INSTALL, 50, 100, 1, 2)
    assert [(e['name'], e['done']) for e in events.events] == [
        ('a', 0), ('b', 0), ('a', 100), ('a', 50)]


class Element:
    """A transaction element of rpm's: its name, arch and whether it erases."""

    def __init__(self, name, arch, erases=False):
        self._name, self._arch, self._erases = name, arch, erases

    def N(self):
        return self._name

    def A(self):
        return self._arch

    def Type(self):
        return rpm.TR_REMOVED if self._erases else rpm.TR_ADDED


def test_the_raw_callback_adds_read_erase_and_the_scriptlet_and_calls_dnfs(events, clock):
    reporter = RpmReporter(events)
    reporter.elements = [Element('new', 'noarch'), Element('old', 'x86_64', erases=True)]
    calls = []
    callback = reporter.wrap(lambda *arguments: calls.append(arguments) or 'dnf says')
    key = SimpleNamespace(pkg=SimpleNamespace(name='new', arch='noarch'))
    # Opened while rpm verifies every package: not a step of one package yet.
    assert callback(rpm.RPMCALLBACK_INST_OPEN_FILE, 0, 0, key, None) == 'dnf says'
    callback(rpm.RPMCALLBACK_TRANS_STOP, 0, 0, None, None)
    callback(rpm.RPMCALLBACK_INST_OPEN_FILE, 0, 0, key, None)
    callback(rpm.RPMCALLBACK_ELEM_PROGRESS, 0, 2, None, None)
    callback(rpm.RPMCALLBACK_SCRIPT_START, rpm.RPMTAG_POSTIN, 0, key, None)
    reporter.progress(key.pkg, C.PKG_SCRIPTLET, None, None, 1, 2)
    callback(rpm.RPMCALLBACK_ELEM_PROGRESS, 1, 2, None, None)
    callback(rpm.RPMCALLBACK_SCRIPT_START, rpm.RPMTAG_TRIGGERSCRIPTS, 0, None, None)
    reporter.progress(SimpleNamespace(name='old', arch='x86_64'), C.PKG_SCRIPTLET, None, None, 2, 2)
    assert len(calls) == 7
    assert [(e['event'], e['name'], e['action'], e.get('scriptlet')) for e in events.events] == [
        ('progress', 'new', 'read', None),
        ('progress', 'new', 'scriptlet', '%post'),
        ('progress', 'old', 'erase', None),
        ('progress', 'old', 'trigger', '%triggerscripts')]


def test_a_failing_scriptlet_says_whether_rpm_went_on(events):
    reporter = RpmReporter(events)
    reporter.elements = [Element('a', 'noarch')]
    callback = reporter.wrap(lambda *arguments: None)
    callback(rpm.RPMCALLBACK_ELEM_PROGRESS, 0, 1, None, None)
    callback(rpm.RPMCALLBACK_SCRIPT_ERROR, rpm.RPMTAG_POSTIN, 1, None, None)
    callback(rpm.RPMCALLBACK_SCRIPT_ERROR, rpm.RPMTAG_PREIN, rpm.RPMRC_OK, None, None)
    assert events.named('scriptlet-error') == [
        dict(event='scriptlet-error', name='a', arch='noarch', scriptlet='%post', fatal=True,
             message='%post scriptlet of a.noarch failed'),
        dict(event='scriptlet-error', name='a', arch='noarch', scriptlet='%pre', fatal=False,
             message='%pre scriptlet of a.noarch failed (rpm went on: the package is in place)')]


def test_nothing_escapes_the_raw_callback(events, capsys):
    class Broken:
        def emit(self, *arguments, **fields):
            raise RuntimeError('the writer broke')

    reporter = RpmReporter(Broken())
    reporter.elements = [Element('a', 'noarch', erases=True)]
    calls = []
    callback = reporter.wrap(lambda *arguments: calls.append(arguments) or 0)
    assert callback(rpm.RPMCALLBACK_ELEM_PROGRESS, 0, 1, None, None) == 0
    assert callback(rpm.RPMCALLBACK_SCRIPT_ERROR, rpm.RPMTAG_PREIN, 1, None, None) == 0
    assert len(calls) == 2  # rpm-python would end the process on an exception
    assert capsys.readouterr().err.count("installtop-dnf: rpm callback: RuntimeError('the writer broke')") == 2


def test_scriptlet_output_goes_to_the_package_rpm_works_on(events):
    reporter = RpmReporter(events)
    reporter.owner = ('a', 'noarch')
    reporter.scriptout(b'one\ntwo \xff\n')
    reporter.scriptout('')
    assert [(e['name'], e['text'], e['stream']) for e in events.events] == [
        ('a', 'one', 'stdout'), ('a', 'two \ufffd', 'stdout')]


def test_dnfs_errors_count_for_rpm_end_only_once_rpm_started():
    reporter = RpmReporter(None)
    stop = FakeStop('download')
    log = RpmErrorLog(reporter, stop)
    record = SimpleNamespace(getMessage=lambda: 'Transaction test error')
    log.emit(record)
    assert reporter.errors == []
    stop.stage = 'rpm'
    log.emit(record)
    reporter.error('rpm failed on a')
    assert reporter.errors == ['Transaction test error', 'rpm failed on a']
