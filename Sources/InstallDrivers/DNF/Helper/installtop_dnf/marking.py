"""The request marked in dnf's goal: install, upgrade, remove, and undo's files and removals."""

import os

import dnf.exceptions
import hawkey

from .protocol import HelperError
from .request import is_undo_file, undo_removal


def mark_request(base, request):
    """Marks the request in dnf's goal; every spec that matches nothing is reported at once
    (a removal's is skipped: nothing installed to remove)."""
    unknown = []
    for spec in request.specs:
        try:
            if request.action == 'install':
                base.install(spec, strict=base.conf.strict)
            elif request.action == 'upgrade':
                base.upgrade(spec)
            else:
                base.remove(spec)
        except dnf.exceptions.MarkingError as e:
            if request.action == 'remove':
                # As dnf and apt do: a package that is not installed is not removed, and no error.
                continue
            # Some of dnf's messages name the spec already, and str() would name it again.
            unknown.append(e.value if e.value.endswith(spec) else str(e))
    if request.action == 'upgrade' and not request.specs:
        base.upgrade_all()
    if unknown:
        raise HelperError('unknown', '\n'.join(unknown))


def mark_undo(base, request):
    """Marks an undo: each FILE.rpm goes back in as dnf install ./FILE.rpm (a package not
    installed, or an upgrade) or dnf downgrade ./FILE.rpm would put it (strict: it must go in
    as it is); each -NAME.ARCH is removed as dnf remove NAME.ARCH would. Returns whether a removal was asked for (the solver may then
    erase, as for remove). Files that cannot be read are reported at once, one a line."""
    unknown = []
    files = []
    for item in request.specs:
        if not is_undo_file(item):
            continue
        if not os.path.isfile(item):
            unknown.append('No such rpm file: %s' % item)
        elif not item.endswith('.rpm'):
            unknown.append('Not an rpm file: %s' % item)
        else:
            try:
                files += base.add_remote_rpms([item], strict=True)
            except (IOError, dnf.exceptions.Error) as e:
                unknown.append('Not an rpm file: %s (%s)' % (item, e))
    if unknown:
        raise HelperError('unknown', '\n'.join(unknown))
    installed = base.sack.query().installed()
    for pkg in files:
        same = installed.filter(name=pkg.name, arch=pkg.arch).run()
        if any(pkg.evr_cmp(old) == 0 for old in same):
            continue  # that version is in place: nothing to put back
        if same and pkg.evr_cmp(sorted(same)[-1]) < 0:
            base.package_downgrade(pkg, strict=True)
        else:
            # An install, or an upgrade as dnf install ./FILE.rpm makes it: dnf's
            # package_upgrade has no strict, and the solver may drop its job when it may erase.
            base.package_install(pkg, strict=True)
    removing = False
    for item in request.specs:
        name_arch = undo_removal(item)
        if name_arch is None:
            continue
        removing = True
        try:
            base.remove(name_arch, forms=[hawkey.FORM_NA])
        except dnf.exceptions.MarkingError:
            continue  # as for remove: a package that is not installed is not removed
    return removing
