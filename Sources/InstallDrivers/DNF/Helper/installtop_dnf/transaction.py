"""The transaction from resolving to the final events: dnf.Base told when rpm starts, the
plan's events, downloads, signatures, rpm's run, and the error event of what dnf raised."""

import dnf
import dnf.exceptions
import rpm

from .configuration import read_repos
from .items import (ACTIONS, check_expected, evr_text, needs_no_download, protected_packages,
                    transaction_items)
from .keeper import Keeper
from .locks import check_locks, lock_paths, remove_own_locks
from .marking import mark_request, mark_undo
from .progress import DownloadReporter
from .protocol import EXIT_FAILED, EXIT_OK, HelperError


class HelperBase(dnf.Base):
    """dnf.Base that reports the moment rpm's transaction starts.

    dnf's do_transaction takes the rpmdb lock, checks, orders and test-runs the transaction,
    then calls _run_transaction, which records history and runs rpm. The test transaction
    takes no lock and leaves signals alone: it is still interruptible, so rpm-start is told
    here, after it, at the last step before rpm runs. The keeper (--keep-into) works here
    too, just before: only a transaction that passed rpm's test gets its versions kept.
    """

    def __init__(self, conf, reporter, stop):
        super().__init__(conf)
        self._reporter = reporter
        self._stop = stop
        self.keeper = None

    def _run_transaction(self, cb):
        reporter = self._reporter
        if self.keeper is not None:
            self.keeper.keep(self)
        reporter.elements = list(self._ts)
        self._stop.enter('rpm', event='rpm-start', count=len(reporter.elements))
        cb.callback = reporter.wrap(cb.callback)
        reporter.start_capture()
        try:
            return super()._run_transaction(cb)
        finally:
            reporter.stop_capture()


def check_signatures(base, packages):
    """What dnf's command line does after downloading (dnf's API leaves it to its caller):
    verify each package's signature where its repository asks for it, importing a missing
    key from the repository's gpgkey, as dnf -y does."""
    for pkg in packages:
        result, message = base.package_signature_check(pkg)
        if result == 1:
            try:
                base.package_import_key(pkg, askcb=lambda *key: True)
                continue
            except dnf.exceptions.Error as e:
                message = str(e)
        if result != 0:
            raise HelperError('signature', message)


def report_final(base, items, events):
    """final events from a fresh open of rpm's database (same root, same %_dbpath)."""
    ts = rpm.TransactionSet(base.conf.installroot)
    seen = set()
    for item in items:
        if (item.name, item.arch) in seen:
            continue
        seen.add((item.name, item.arch))
        installed = [evr_text(h[rpm.RPMTAG_EPOCH], h[rpm.RPMTAG_VERSION], h[rpm.RPMTAG_RELEASE])
                     for h in ts.dbMatch('name', item.name) if h[rpm.RPMTAG_ARCH] == item.arch]
        events.emit('final', name=item.name, arch=item.arch, installed=installed)
    ts.closeDB()


def run_transaction(base, reporter, items, events, stop):
    """Runs rpm's transaction; returns the exit status. Errors before rpm-start raise."""
    errors = []
    try:
        base.do_transaction(display=[reporter])
    except dnf.exceptions.LockError:
        raise
    except dnf.exceptions.Error as e:
        if stop.stage != 'rpm':
            # rpm's check or test transaction (or loading the packages into it) refused it.
            raise HelperError('check', str(e).strip())
        errors.append(str(e))
    errors = reporter.errors + errors
    for tsi in base.transaction:
        if tsi.state == ACTIONS.TransactionItemState_ERROR:
            errors.append('rpm failed on %s' % tsi)
    events.emit('rpm-end', ok=not errors, errors=errors)
    report_final(base, items, events)
    return EXIT_OK if not errors else EXIT_FAILED


def plan_and_run(base, reporter, repo_setopts, request, events, stop):
    read_repos(base, repo_setopts)
    stop.on_forced_exit(lambda paths=lock_paths(base.conf): remove_own_locks(paths))
    check_locks(base.conf)
    stop.checkpoint()
    # As dnf's remove command: the repositories have no part in resolving a removal (with
    # them, the solver may downgrade a dependent package instead of removing it). Keeping
    # looks for the removed builds in them, so they are read then, but hidden from the solver.
    removing = request.action == 'remove'
    read_available = not removing or request.keep_into is not None
    enabled = [repo.id for repo in base.repos.iter_enabled()]
    if removing and read_available:
        # A repository that cannot be read costs a removal nothing but what it would keep.
        for repo in base.repos.iter_enabled():
            repo.skip_if_unavailable = True
    base.fill_sack(load_system_repo=True, load_available_repos=read_available)
    unread_repos = set(enabled) - {repo.id for repo in base.repos.iter_enabled()}
    stop.checkpoint()
    hidden = None
    if removing and read_available:
        hidden = base.sack.query().available().apply()  # what the solver would see of them
        base.sack.add_excludes(hidden)
    if request.action == 'undo':
        # As dnf history undo: the repositories are read, so that a dependency the files need
        # can come from them.
        allow_erasing = mark_undo(base, request)
    else:
        mark_request(base, request)
        allow_erasing = removing
    base.args = ['installtop', request.action] + request.specs  # history's command line
    base.resolve(allow_erasing=allow_erasing)
    if hidden is not None:
        base.sack.remove_excludes(hidden)
    stop.checkpoint()

    items = transaction_items(base.transaction or [], base.goal)
    new_packages = [item.new_package for item in items if item.new_package is not None]
    already = 0
    for pkg in new_packages:
        if needs_no_download(pkg):
            already += pkg.downloadsize
        stop.checkpoint()
    protected = protected_packages(base)
    for item in items:
        events.emit('item', **item.event(protected))
    events.emit('planned', count=len(items),
                download=sum(pkg.downloadsize for pkg in new_packages), already=already)
    if request.expect is not None:
        check_expected(items, request.expect)
    if request.mode == 'plan' or not items:
        stop.checkpoint()  # a stop that came while the items were told still ends with stopped
        return EXIT_OK

    if request.keep_into is not None:
        base.keeper = Keeper(request.keep_into, events, stop, unread_repos)
    stop.enter('download')
    base.download_packages(new_packages, progress=DownloadReporter(events))
    stop.checkpoint()
    check_signatures(base, new_packages)
    check_locks(base.conf)
    stop.checkpoint()
    return run_transaction(base, reporter, items, events, stop)


def error_of(exception):
    """The error event (kind, message) for an exception dnf raised before rpm-start."""
    if isinstance(exception, HelperError):
        return exception.kind, exception.message
    message = str(exception).strip()
    kinds = ((dnf.exceptions.LockError, 'locked'), (dnf.exceptions.RepoError, 'repo'),
             (dnf.exceptions.DepsolveError, 'depsolve'), (dnf.exceptions.MarkingError, 'unknown'),
             (dnf.exceptions.DownloadError, 'download'))
    for cls, kind in kinds:
        if isinstance(exception, cls):
            return kind, message
    return 'other', '%s: %s' % (type(exception).__name__, message)
