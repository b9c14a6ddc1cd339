"""items: dnf's transaction items as the item events and tokens (installtop's plan), and the
check of a run against the confirmed plan (--expect, error `changed`)."""

from types import SimpleNamespace

import libdnf.transaction as T
import pytest

from installtop_dnf.items import (Item, check_expected, evr_text, package_evr, package_label,
                                  transaction_items)
from installtop_dnf.protocol import HelperError


class Package:
    """A hawkey package's stand-in: hashed by identity, as the solver's answers are used."""

    def __init__(self, name, evr, arch, size, repo):
        epoch, _, version_release = evr.rpartition(':')
        self.name, self.arch, self.epoch = name, arch, int(epoch or 0)
        self.version, self.release = version_release.split('-')
        self.downloadsize, self.reponame = size, repo


def package(name, evr='1.0-1', arch='noarch', size=100, repo='lab'):
    return Package(name, evr, arch, size, repo)


def tsi(action, pkg, reason=T.TransactionItemReason_USER):
    return SimpleNamespace(action=action, pkg=pkg, reason=reason)


class Goal:
    """The solver's answer to which installed packages a new one replaces."""

    def __init__(self, replaced=None):
        self._replaced = replaced or {}

    def obsoleted_by_package(self, pkg):
        return self._replaced.get(pkg, [])


def test_evr_has_the_epoch_only_when_nonzero():
    assert evr_text(0, '1.0', '1') == '1.0-1'
    assert evr_text(None, '1.0', '1') == '1.0-1'
    assert evr_text('2', '1.0', '1.el9') == '2:1.0-1.el9'
    assert package_evr(package('a', '3:2-5')) == '3:2-5'
    assert package_label(package('a', '3:2-5', 'x86_64')) == 'a-3:2-5.x86_64'


def test_an_upgrade_is_one_item_with_its_old_version_and_a_removal_says_why():
    new, old = package('a', '2.0-1'), package('a', '1.0-1')
    dep = package('b', '1-1', 'x86_64')
    asked = package('c', '1-1')
    transaction = [tsi(T.TransactionItemAction_UPGRADE, new),
                   tsi(T.TransactionItemAction_UPGRADED, old),
                   tsi(T.TransactionItemAction_REASON_CHANGE, package('z')),
                   tsi(T.TransactionItemAction_REMOVE, dep, T.TransactionItemReason_DEPENDENCY),
                   tsi(T.TransactionItemAction_REMOVE, asked)]
    items = transaction_items(transaction, Goal({new: [old]}))
    assert [item.token for item in items] == [
        'upgrade:a.noarch:1.0-1:2.0-1', 'remove:b.x86_64:1-1:', 'remove:c.noarch:1-1:']
    assert items[0].event() == dict(action='upgrade', name='a', arch='noarch', old='1.0-1',
                                    new='2.0-1', size=100, repo='lab')
    assert items[1].event() == dict(action='remove', name='b', arch='x86_64', old='1-1',
                                    new=None, size=None, repo=None, reason='dependency')
    assert 'reason' not in items[2].event()


def test_an_obsoleting_install_names_what_it_replaces():
    new, gone = package('lab-new', '1-1'), package('lab-old', '1-1')
    transaction = [tsi(T.TransactionItemAction_OBSOLETE, new),
                   tsi(T.TransactionItemAction_OBSOLETED, gone)]
    items = transaction_items(transaction, Goal({new: [gone]}))
    assert [item.token for item in items] == ['install:lab-new.noarch::1-1',
                                              'obsoleted:lab-old.noarch:1-1:']
    assert items[1].event()['by'] == 'lab-new'
    assert items[1].event()['size'] is None


@pytest.mark.parametrize('action, word', [
    (T.TransactionItemAction_INSTALL, 'install'), (T.TransactionItemAction_DOWNGRADE, 'downgrade'),
    (T.TransactionItemAction_REINSTALL, 'reinstall')])
def test_forward_actions(action, word):
    items = transaction_items([tsi(action, package('a'))], Goal())
    assert items[0].token == '%s:a.noarch::1.0-1' % word


def test_protected_by_name_or_as_the_running_kernel():
    kernel = Item('remove', package('kernel-core', '5.14-1', 'x86_64'), old='5.14-1')
    other_kernel = Item('remove', package('kernel-core', '5.13-1', 'x86_64'), old='5.13-1')
    dnf_item = Item('remove', package('dnf'), old='1.0-1')
    protected = {'dnf', ('kernel-core', 'x86_64', '5.14-1')}
    assert dnf_item.event(protected)['protected'] is True
    assert kernel.event(protected)['protected'] is True
    assert 'protected' not in other_kernel.event(protected)


def test_the_confirmed_plan_must_be_the_transaction_exactly():
    items = [Item('install', package('a'), new='1.0-1'), Item('remove', package('b'), old='2-1')]
    check_expected(items, {'install:a.noarch::1.0-1', 'remove:b.noarch:2-1:'})
    with pytest.raises(HelperError) as raised:
        check_expected(items, {'install:a.noarch::0.9-1', 'remove:b.noarch:2-1:',
                               'install:c.noarch::1-1'})
    assert raised.value.kind == 'changed'
    assert raised.value.message == (
        'the transaction is not the confirmed plan: no longer in the transaction: '
        'install:a.noarch::0.9-1, install:c.noarch::1-1; new in the transaction: '
        'install:a.noarch::1.0-1')
