"""The transaction's items: dnf's resolved transaction as the item events tell it, their
tokens and the check against the confirmed plan (--expect)."""

import os

import libdnf.transaction

from .protocol import HelperError

# libdnf's names of a transaction item's action, reason and state.
ACTIONS = libdnf.transaction
FORWARD_WORDS = {ACTIONS.TransactionItemAction_INSTALL: 'install',
                 ACTIONS.TransactionItemAction_UPGRADE: 'upgrade',
                 ACTIONS.TransactionItemAction_DOWNGRADE: 'downgrade',
                 ACTIONS.TransactionItemAction_REINSTALL: 'reinstall',
                 ACTIONS.TransactionItemAction_OBSOLETE: 'install'}
# The installed version that a forward action replaces: part of the forward item ("old").
REPLACED_ACTIONS = {ACTIONS.TransactionItemAction_UPGRADED,
                    ACTIONS.TransactionItemAction_DOWNGRADED,
                    ACTIONS.TransactionItemAction_REINSTALLED}


def evr_text(epoch, version, release):
    epoch = int(epoch or 0)
    return '%s%s-%s' % ('%d:' % epoch if epoch else '', version, release)


def package_evr(pkg):
    return evr_text(pkg.epoch, pkg.version, pkg.release)


class Item:
    """One package of the transaction, as the item event tells it."""

    def __init__(self, action, pkg, old=None, new=None, by=None, dependency=False):
        self.action = action
        self.name = pkg.name
        self.arch = pkg.arch
        self.old = old
        self.new = new
        self.by = by
        self.dependency = dependency
        self.new_package = pkg if new is not None else None

    @property
    def token(self):
        return '%s:%s.%s:%s:%s' % (self.action, self.name, self.arch, self.old or '',
                                   self.new or '')

    def event(self, protected=frozenset()):
        pkg = self.new_package
        fields = dict(action=self.action, name=self.name, arch=self.arch, old=self.old,
                      new=self.new, size=pkg.downloadsize if pkg else None,
                      repo=pkg.reponame if pkg else None)
        if self.by is not None:
            fields['by'] = self.by
        if self.dependency:
            fields['reason'] = 'dependency'
        if self.name in protected or (self.name, self.arch, self.new or self.old) in protected:
            fields['protected'] = True
        return fields


def protected_packages(base):
    """What dnf refuses to remove in this configuration: the names of protected_packages (dnf's
    own, its protected.d files, the root's dnf.conf), and the running kernel as
    (name, arch, evr) when protect_running_kernel and the sack holds it."""
    protected = set(base.conf.protected_packages)
    if base.conf.protect_running_kernel:
        try:
            kernel = base.sack.get_running_kernel()
        except Exception:  # a hawkey without it: dnf then protects no kernel either
            kernel = None
        if kernel is not None:
            protected.add((kernel.name, kernel.arch, package_evr(kernel)))
    return protected


def transaction_items(transaction, goal):
    """The items of dnf's resolved transaction, in its order.

    dnf records an upgrade as two transaction items (UPGRADE of the new package, UPGRADED of
    the installed one); they make one item here. Which installed package a new one replaces,
    by upgrade or by obsoleting it, is the solver's answer (goal.obsoleted_by_package), as
    dnf itself builds the transaction from it.
    """
    tsis = [tsi for tsi in transaction
            if tsi.action != ACTIONS.TransactionItemAction_REASON_CHANGE]
    replacer_of = {}
    for tsi in tsis:
        if tsi.action in FORWARD_WORDS:
            for old in goal.obsoleted_by_package(tsi.pkg):
                replacer_of.setdefault(old, tsi.pkg)
    items = []
    for tsi in tsis:
        pkg = tsi.pkg
        if tsi.action in FORWARD_WORDS:
            olds = [t.pkg for t in tsis
                    if t.action in REPLACED_ACTIONS and replacer_of.get(t.pkg) == pkg]
            old = package_evr(olds[0]) if olds else None
            items.append(Item(FORWARD_WORDS[tsi.action], pkg, old=old, new=package_evr(pkg)))
        elif tsi.action == ACTIONS.TransactionItemAction_OBSOLETED:
            replacer = replacer_of.get(pkg)
            items.append(Item('obsoleted', pkg, old=package_evr(pkg),
                              by=replacer.name if replacer is not None else None))
        elif tsi.action == ACTIONS.TransactionItemAction_REMOVE:
            items.append(Item('remove', pkg, old=package_evr(pkg),
                              dependency=tsi.reason != ACTIONS.TransactionItemReason_USER))
    return items


def needs_no_download(pkg):
    """True when the package's file is already here: in the cache, or in a local repository
    (dnf reads those in place). Not verified here: reading every file to check its checksum
    made a plan of a large cached upgrade cost a read of all of it; the run verifies them."""
    return os.path.exists(pkg.localPkg())


# The installed packages a transaction takes away: the version that an upgrade, downgrade or
# reinstall replaces, a removed package, an obsoleted one.
TAKEN_ACTIONS = REPLACED_ACTIONS | {ACTIONS.TransactionItemAction_OBSOLETED,
                                    ACTIONS.TransactionItemAction_REMOVE}


def package_label(pkg):
    """NAME-EVR.ARCH, as the not-kept reasons name a package."""
    return '%s-%s.%s' % (pkg.name, package_evr(pkg), pkg.arch)


def check_expected(items, expected):
    tokens = {item.token for item in items}
    if tokens == expected:
        return
    parts = []
    missing = sorted(expected - tokens)
    added = sorted(tokens - expected)
    if missing:
        parts.append('no longer in the transaction: ' + ', '.join(missing))
    if added:
        parts.append('new in the transaction: ' + ', '.join(added))
    raise HelperError('changed', 'the transaction is not the confirmed plan: ' + '; '.join(parts))
