"""Keeping what the transaction takes away (--keep-into): the installed build from dnf's cache
or a repository, else one built anew (rebuild.RebuildPlan), as the kept and not-kept events."""

import collections
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time

import dnf.callback
import dnf.exceptions
import hawkey
import rpm

from .items import TAKEN_ACTIONS, package_evr, package_label
from .rebuild import RebuildPlan, RebuildRefused, RpmbuildMissing, spec_text
from .stop import Stopped


def header_identity(header):
    """What tells one build of a NEVRA from another: the digests of its header, which rpm's
    database keeps as they were in the package file (a rebuild has other ones). None when the
    header has neither."""
    identity = (header[rpm.RPMTAG_SHA1HEADER], header[rpm.RPMTAG_SHA256HEADER])
    return identity if any(identity) else None


class KeepFailed(Exception):
    """One package cannot be kept; the message is its not-kept reason."""


# What rpmbuild runs with: the lookup is on the helper's PATH (a PATH without rpmbuild hides it).
REBUILD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
# Each rebuild under way has a copy of its package's files in TMPDIR (often a tmpfs, in
# memory), and one more is staged while they run: a machine of many CPUs builds no more at once.
MAX_REBUILD_WORKERS = 8


def rebuild_workers():
    """How many rebuilds run at once: one per CPU the helper may use, at most
    MAX_REBUILD_WORKERS. rpmbuild keeps one CPU busy (reading its configuration, classifying
    and digesting the files, compressing the payload) and waits on nothing, so N CPUs build N
    packages in the time of one, while the helper stages the next package and checks the last
    one built."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_REBUILD_WORKERS))


class Keeping:
    """One installed package the transaction takes away, and what became of it so far."""

    def __init__(self, pkg):
        self.fields = dict(name=pkg.name, arch=pkg.arch, evr=package_evr(pkg))
        # Once its step returned (Keeper._attempt): its KeptFile, its Rebuild while that goes
        # on, or None when it is not kept.
        self.outcome = None
        self.reason = None  # why it is not kept


class KeptFile:
    """A package file to keep, written in full beside its final name (partial): it gets that
    name when its kept event is told (Keeper._tell)."""

    def __init__(self, partial, target, source, edited=None, why=None):
        self.partial = partial
        self.target = target
        self.source = source
        self.edited = edited  # the %config files a rebuild took as edited (RebuildPlan.stage)
        self.why = why  # a rebuilt one: why neither the cache nor a repository had it


class Rebuild:
    """One package being built anew (Keeper._start_rebuild, _finish_rebuild)."""

    def __init__(self, keeping, plan, why, target):
        self.keeping = keeping
        self.plan = plan
        self.why = why  # why neither the cache nor a repository had it
        self.target = target  # its file in the folder
        self.work = None  # its temporary folder: the staged files, the spec, rpmbuild's log
        self.partial = None  # the file rpmbuild writes the package into (then its KeptFile's)
        self.child = None  # its rpmbuild


class Keeper:
    """Keeps the installed builds that the transaction takes away as rpm files in a folder, so
    that installtop can put them back (undo) when no repository holds them any more: the
    installed build itself (dnf's cache, a repository), else one built anew (RebuildPlan).

    It runs right before rpm-start (HelperBase._run_transaction): after the downloads and rpm's
    test transaction, so that nothing is kept for a transaction that does not get to run, and
    while a stop can still end everything (stage download). Keeping never fails the
    transaction: whatever goes wrong with a package is its not-kept event.

    Rebuilds run side by side, one rpmbuild per CPU (rebuild_workers): the main thread goes on
    with the next packages (their cache, their repository, their staging) while rpmbuild makes
    the earlier ones, and checks each built package when its rpmbuild ends. The events still
    come one per package in the transaction's order: a package waits to be told until those
    before it are.
    """

    def __init__(self, folder, events, stop, unread_repos=()):
        self._folder = folder
        self._events = events
        self._stop = stop
        self._unread_repos = sorted(unread_repos)
        self._folder_error = None
        self._folder_ready = False
        self._reader = None
        self._rpmbuild = shutil.which('rpmbuild')
        self._workers = rebuild_workers()
        self._running = []  # the rebuilds whose rpmbuild was started and not yet checked
        # Rebuilds whose rpmbuild ended, put by the thread that waits for each (_watch): the
        # main thread wakes at once, where polling the processes would wait for a timer.
        self._ended = queue.Queue()
        # What a stop that ends the process at once (the signal thread, _abandon) must not
        # leave behind; the main thread changes these sets under the lock.
        self._lock = threading.Lock()
        self._partials = set()  # files being written into the folder
        self._works = set()  # the rebuilds' temporary folders
        self._children = set()  # rpmbuild processes
        self._stop.on_forced_exit(self._abandon)

    def keep(self, base):
        taken, seen = [], set()
        for tsi in base.transaction:
            key = (tsi.pkg.name, tsi.pkg.arch, package_evr(tsi.pkg))
            if tsi.action in TAKEN_ACTIONS and key not in seen:
                seen.add(key)
                taken.append(tsi.pkg)
        untold = collections.deque()  # the packages not told yet, in the transaction's order
        try:
            for pkg in taken:
                self._stop.checkpoint()
                keeping = Keeping(pkg)
                untold.append(keeping)
                keeping.outcome = self._attempt(keeping, self._keep_one, base, pkg, keeping)
                self._check_ended(wait=False)
                self._tell(untold)
            while self._running:
                self._check_ended(wait=True)
                self._tell(untold)
        finally:
            # After a stop (or anything unforeseen): no rpmbuild goes on, and no file of a
            # package not told stays (built, or copied, it is still a partial file).
            for rebuild in list(self._running):
                self._discard(rebuild)
            with self._lock:
                partials = list(self._partials)
            for partial in partials:
                self._remove_partial(partial)

    def _attempt(self, keeping, step, *args):
        """Runs step(*args), a step of keeping keeping's package, and returns what it returns;
        None when it fails (KeepFailed, or any error but a stop), with the reason in keeping."""
        try:
            return step(*args)
        except Stopped:
            raise
        except KeepFailed as e:
            keeping.reason = str(e)
        except Exception as e:
            self._stop.checkpoint()  # dnf failing because of a stop: it is the stop
            keeping.reason = 'cannot keep it: %s: %s' % (type(e).__name__, e)
        return None

    def _tell(self, untold):
        """Emits the events of the packages settled so far, in order, up to the first one whose
        rebuild goes on. A kept file gets its final name only now, right before its event, so
        that a stop leaves no kept file untold (but for the moment between the two, as ever):
        one whose event waits is still a partial file, which the stop removes."""
        while untold and not isinstance(untold[0].outcome, Rebuild):
            keeping = untold.popleft()
            kept = keeping.outcome
            if kept is not None:
                kept = self._attempt(keeping, self._commit_kept, kept)
            if kept is None:
                self._events.emit('not-kept', **keeping.fields, reason=keeping.reason)
            else:
                self._events.emit('kept', **keeping.fields, **kept)

    def _commit_kept(self, kept):
        """Gives a kept file its final name; returns the kept event's fields."""
        try:
            file, size = self._commit(kept.partial, kept.target)
        except KeepFailed as e:
            if kept.why is None:
                raise
            raise KeepFailed('%s, and it cannot be rebuilt: %s' % (kept.why, e))
        fields = {}
        if kept.edited:
            fields['edited'] = kept.edited
        fields.update(file=file, size=size, source=kept.source)
        return fields

    def _keep_one(self, base, pkg, keeping):
        """Keeps one installed package; returns its KeptFile, or the Rebuild started for it,
        else raises KeepFailed."""
        self._prepare(base)
        label = package_label(pkg)
        header = self._installed_header(base, pkg)
        installed = header_identity(header) if header is not None else None
        if installed is None:
            raise KeepFailed("rpm's database has no header digest of the installed %s" % label)
        # Excludes are the solver's business: an excluded build is still the installed one.
        candidates = base.sack.query(flags=hawkey.IGNORE_EXCLUDES).available().filter(
            name=pkg.name, epoch=pkg.epoch, version=pkg.version, release=pkg.release,
            arch=pkg.arch).run()
        reasons = []
        if not candidates:
            if self._unread_repos:
                reasons.append('no repository that could be read holds %s (could not read %s)'
                               % (label, ', '.join(self._unread_repos)))
            else:
                reasons.append('no repository holds %s any more' % label)
        settled = set()
        # (a) A file of it that is here already: in dnf's cache, a local repository, the
        # command line. Its checksum is the repository's: a cached file may be a download cut
        # short, whose header alone would still look right.
        for candidate in candidates:
            path = candidate.localPkg()
            local = candidate._is_local_pkg()
            if not os.path.exists(path):
                if local:
                    settled.add(candidate)
                    reasons.append('the file of %s in repository %s is missing (%s)' % (
                        label, candidate.reponame, path))
                continue
            self._stop.checkpoint()
            if not self._verified(candidate):
                if local:
                    settled.add(candidate)
                    reasons.append("the file of %s in repository %s does not match the "
                                   "repository's checksum (%s)" % (label, candidate.reponame, path))
                continue  # a cached file that is not the repository's: fetched again below
            settled.add(candidate)
            reason = self._other_build(path, installed, label, candidate)
            if reason is None:
                return self._store(pkg, path, 'cache')
            reasons.append(reason)
        # (b) Fetched from a repository that still offers it.
        for candidate in candidates:
            if candidate in settled:
                continue
            self._stop.checkpoint()
            try:
                # No download events: installtop counts those by NAME.ARCH, which the new
                # version of the same package shares. librepo's interrupt flag cuts this
                # download short on a stop as any other (StopControl).
                base.download_packages([candidate], progress=dnf.callback.NullDownloadProgress())
            except dnf.exceptions.Error as e:
                self._stop.checkpoint()  # a download cut short by a stop is the stop, not a reason
                reasons.append('cannot download it: %s' % str(e).strip())
                continue
            self._stop.checkpoint()
            path = candidate.localPkg()
            try:
                reason = self._other_build(path, installed, label, candidate)
                if reason is None:
                    return self._store(pkg, path, 'repository')
                reasons.append(reason)
            finally:
                if not base.conf.keepcache:
                    # dnf leaves a file it fetched for a transaction in its cache until the
                    # transaction succeeds; this one is no part of it, and is kept now.
                    try:
                        os.unlink(path)
                    except OSError:
                        pass
        # (c) Built anew from what is installed: rpm's database and the files in the root.
        why = '; '.join(dict.fromkeys(reasons))
        try:
            return self._start_rebuild(base, pkg, header, keeping, why)
        except RpmbuildMissing:
            raise KeepFailed('%s, and rpmbuild (the rpm-build package) is not installed to '
                             'rebuild it' % why)
        except RebuildRefused as e:
            raise KeepFailed('%s, and it cannot be rebuilt: %s' % (why, e))

    def _prepare(self, base):
        """The folder (made 0700 when missing) and the package file reader, once."""
        if not self._folder_ready:
            self._folder_ready = True
            try:
                if not os.path.isdir(self._folder):
                    os.makedirs(self._folder, mode=0o700, exist_ok=True)
                    os.chmod(self._folder, 0o700)  # makedirs' mode went through the umask
            except OSError as e:
                self._folder_error = 'cannot write %s: %s' % (self._folder, e.strerror or e)
            # A file's signature has no say in whether it is the installed build; without
            # signatures, and with an empty keyring, reading a header opens no rpm database.
            self._reader = rpm.TransactionSet(base.conf.installroot, rpm._RPMVSF_NOSIGNATURES)
            self._reader.setKeyring(rpm.keyring())
        if self._folder_error is not None:
            raise KeepFailed(self._folder_error)

    @staticmethod
    def _installed_header(base, pkg):
        # The transaction's own rpm handle: it has the database open (dnf's rpmdb lock held).
        for header in base._ts.dbMatch(rpm.RPMDBI_PACKAGES, pkg.rpmdbid):
            return header
        return None

    @staticmethod
    def _verified(candidate):
        try:
            return candidate.verifyLocalPkg() is True
        except Exception:  # libdnf cannot read it: not a file to keep
            return False

    def _other_build(self, path, installed, label, candidate):
        """None when the file at path is the installed build, else why not."""
        try:
            with open(path, 'rb') as package:
                header = self._reader.hdrFromFdno(package.fileno())
        except (OSError, rpm.error) as e:
            return 'cannot read %s: %s' % (path, getattr(e, 'strerror', None) or e)
        if header_identity(header) == installed:
            return None
        return "the repository's %s is another build than the installed one (repository %s)" % (
            label, candidate.reponame)

    @staticmethod
    def _file_name(pkg):
        return '%s-%s-%s.%s.rpm' % (pkg.name, pkg.version, pkg.release, pkg.arch)

    def _store(self, pkg, path, source):
        """Copies path into the folder, to be NAME-VERSION-RELEASE.ARCH.rpm; returns its
        KeptFile."""
        target = os.path.join(self._folder, self._file_name(pkg))
        partial = None
        try:
            partial = self._new_partial(target)
            shutil.copyfile(path, partial)
        except OSError as e:
            self._remove_partial(partial)
            raise KeepFailed('cannot write %s: %s' % (target, e.strerror or e))
        return KeptFile(partial, target, source)

    def _new_partial(self, target):
        """An empty file (mode 0600) beside target, to write the package into: written under
        another name, then renamed (_commit), a file by the final name is whole."""
        fd, partial = tempfile.mkstemp(prefix='.%s.' % os.path.basename(target),
                                       suffix='.part', dir=self._folder)
        os.close(fd)
        self._hold(self._partials, partial)
        return partial

    def _commit(self, partial, target):
        """Gives the partial file its final name; returns (file, size)."""
        try:
            os.chmod(partial, 0o600)
            # On disk before rpm runs: it is what puts the system back if rpm's run goes wrong.
            fd = os.open(partial, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(partial, target)
            self._release(self._partials, partial)
            fd = os.open(self._folder, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            return target, os.path.getsize(target)
        except OSError as e:
            self._remove_partial(partial)
            raise KeepFailed('cannot write %s: %s' % (target, e.strerror or e))

    def _remove_partial(self, partial):
        if partial is not None:
            try:
                os.unlink(partial)
            except OSError:
                pass
            self._release(self._partials, partial)

    # -- (c) rebuilding

    def _start_rebuild(self, base, pkg, header, keeping, why):
        """Starts building the installed package anew (RebuildPlan): stages its files, writes
        its spec and starts rpmbuild, into a partial file of the folder; returns the Rebuild
        (_finish_rebuild checks and keeps what rpmbuild makes), else raises RebuildRefused."""
        if header is None:
            raise RebuildRefused("rpm's database has no header of it")
        plan = RebuildPlan(header, self._stop)
        if self._rpmbuild is None:
            raise RpmbuildMissing()
        rebuild = Rebuild(keeping, plan, why, os.path.join(self._folder, self._file_name(pkg)))
        try:
            try:
                # In the helper's temporary folder (TMPDIR: its own, which installtop removes).
                rebuild.work = tempfile.mkdtemp(prefix='rebuild-')
            except OSError as e:
                raise RebuildRefused('cannot make a temporary folder: %s' % (e.strerror or e))
            self._hold(self._works, rebuild.work)
            stage = os.path.join(rebuild.work, 'stage')
            try:
                plan.stage(base.conf.installroot or '/', stage)
                self._stop.checkpoint()
                spec = self._write_spec(plan, rebuild.work)
            except OSError as e:
                raise RebuildRefused('cannot write %s: %s' % (
                    getattr(e, 'filename', None) or rebuild.work, e.strerror or e))
            try:
                rebuild.partial = self._new_partial(rebuild.target)
            except OSError as e:
                raise RebuildRefused('cannot write %s: %s' % (rebuild.target, e.strerror or e))
            # Staged while the earlier ones build; started when one of them is done.
            while len(self._running) >= self._workers:
                self._check_ended(wait=True)
            try:
                self._run_rpmbuild(rebuild, spec, stage)
            except OSError as e:
                raise RebuildRefused('cannot run %s: %s' % (self._rpmbuild, e.strerror or e))
        except BaseException:
            self._discard(rebuild)
            raise
        return rebuild

    @staticmethod
    def _write_spec(plan, work):
        scriptlets = os.path.join(work, 'scriptlets')
        os.mkdir(scriptlets, 0o700)
        for _, body, name in plan.scriptlets:
            if name is not None:
                with open(os.path.join(scriptlets, name), 'w', encoding='utf-8',
                          errors='surrogateescape') as script:
                    script.write(spec_text(body))
        spec = os.path.join(work, '%s.spec' % plan.name)
        with open(spec, 'w', encoding='utf-8', errors='surrogateescape') as out:
            out.write(plan.spec(scriptlets))
        return spec

    def _rpmbuild_command(self, rebuild, spec, stage):
        """rpmbuild's command line for a rebuild: the staged files as the build root, which
        only the spec's %files reads (no %install, see RebuildPlan.spec); in the work folder,
        the package into the partial file; no build dependency checked (so rpmbuild opens no
        rpm database: it would make one, all its tables and indexes, for each package); no
        %clean (the work folder goes as a whole); nothing done to the files (no stripping, no
        debuginfo, no build-id links, no byte-compiling, no mtime clamping); no search for
        unpackaged files (the build root holds the package's files and nothing else); the
        header's digest algorithm; no dependency found in any file (only config(NAME), see
        RebuildPlan._dependency_lines); one CPU each (one rpmbuild runs per CPU, see
        rebuild_workers; it also spares the shell that would count them); a fast payload."""
        plan, work = rebuild.plan, rebuild.work
        command = [self._rpmbuild, '-bb', '--quiet', '--nodeps', '--noclean',
                   '--buildroot', spec_text(stage)]
        if plan.arch != 'noarch':
            command += ['--target', plan.arch]
        for name, value in (
                ('_topdir', spec_text(work)),
                ('_builddir', spec_text(os.path.join(work, 'BUILD'))),
                ('_buildrootdir', spec_text(os.path.join(work, 'BUILDROOT'))),
                ('_rpmdir', spec_text(self._folder)),
                ('_build_name_fmt', spec_text(os.path.basename(rebuild.partial))),
                ('__spec_install_post', '%{nil}'), ('__os_install_post', '%{nil}'),
                ('debug_package', '%{nil}'), ('_build_id_links', 'none'),
                ('clamp_mtime_to_source_date_epoch', '0'),
                ('use_source_date_epoch_as_buildtime', '0'),
                ('__check_files', '%{nil}'),
                ('_binary_filedigest_algorithm', '%d' % plan.digest_algorithm),
                ('__provides_exclude_from', '^.*$'), ('__requires_exclude_from', '^.*$'),
                ('_smp_build_ncpus', '1'),
                ('_binary_payload', 'w1.gzdio')):
            command += ['--define', '%s %s' % (name, value)]
        command.append(spec)
        return command

    def _run_rpmbuild(self, rebuild, spec, stage):
        """Starts rebuild's rpmbuild and the thread that waits for it to end (_watch)."""
        work = rebuild.work
        home = os.path.join(work, 'home')
        os.mkdir(home, 0o700)
        with open(os.path.join(home, '.rpmmacros'), 'w') as macros:
            # rpmbuild opens no database; were it to, none of the system's.
            macros.write('%%_dbpath %s\n' % spec_text(os.path.join(work, 'rpmdb')))
        environment = {'HOME': home, 'TMPDIR': work, 'PATH': REBUILD_PATH, 'LC_ALL': 'C.UTF-8'}
        self._stop.checkpoint()
        with open(os.path.join(work, 'rpmbuild.log'), 'wb') as log:
            # A session of its own: a stop kills rpmbuild and whatever it started, at once.
            rebuild.child = subprocess.Popen(self._rpmbuild_command(rebuild, spec, stage),
                                             stdin=subprocess.DEVNULL, stdout=log,
                                             stderr=subprocess.STDOUT, cwd=work,
                                             env=environment, start_new_session=True)
        self._hold(self._children, rebuild.child)
        self._running.append(rebuild)
        threading.Thread(target=self._watch, args=(rebuild,), name='rpmbuild',
                         daemon=True).start()

    def _watch(self, rebuild):
        """(Its own thread) waits for rebuild's rpmbuild to end, and tells the main thread."""
        rebuild.child.wait()
        self._ended.put(rebuild)

    def _check_ended(self, wait):
        """Finishes the rebuilds whose rpmbuild has ended; with wait, waits for one first,
        unless none runs (a stop ends the wait within 0.1 s)."""
        while self._running:
            try:
                rebuild = self._ended.get(timeout=0.1) if wait else self._ended.get_nowait()
            except queue.Empty:
                if not wait:
                    return
                self._stop.checkpoint()
                continue
            if rebuild not in self._running:
                continue  # discarded meanwhile
            wait = False
            self._running.remove(rebuild)
            keeping = rebuild.keeping
            keeping.outcome = self._attempt(keeping, self._finish_rebuild, rebuild)

    def _finish_rebuild(self, rebuild):
        """Checks what rebuild's rpmbuild made against the installed header; returns its
        KeptFile, else raises KeepFailed."""
        try:
            try:
                self._check_rpmbuild(rebuild)
                self._stop.checkpoint()
                try:
                    with open(rebuild.partial, 'rb') as package:
                        built = self._reader.hdrFromFdno(package.fileno())
                except (OSError, rpm.error) as e:
                    raise RebuildRefused('cannot read what rpmbuild made: %s'
                                         % (getattr(e, 'strerror', None) or e))
                difference = rebuild.plan.difference(built)
                if difference is not None:
                    raise RebuildRefused(difference)
            except RebuildRefused as e:
                raise KeepFailed('%s, and it cannot be rebuilt: %s' % (rebuild.why, e))
            partial, rebuild.partial = rebuild.partial, None
        finally:
            self._discard(rebuild)
        return KeptFile(partial, rebuild.target, 'rebuilt',
                        sorted(rebuild.plan.edited) or None, rebuild.why)

    @staticmethod
    def _check_rpmbuild(rebuild):
        """Raises RebuildRefused with rpmbuild's first error when it did not make the package."""
        status = rebuild.child.returncode
        if status == 0 and os.path.isfile(rebuild.partial) and os.path.getsize(rebuild.partial):
            return
        with open(os.path.join(rebuild.work, 'rpmbuild.log'), 'rb') as log:
            lines = [line.strip() for line in log.read().decode('utf-8', 'replace')
                     .splitlines() if line.strip()]
        errors = [line for line in lines if line.startswith('error: ')]
        first = errors[0][len('error: '):] if errors else (lines[-1] if lines else None)
        raise RebuildRefused('rpmbuild failed: %s' % (
            first or 'it ended with status %d and said nothing' % status))

    def _discard(self, rebuild):
        """Ends a rebuild: kills its rpmbuild if it still runs, removes its partial file (unless
        its KeptFile has it now) and its work folder."""
        child = rebuild.child
        if child is not None:
            self._kill(child)
            child.wait()  # after its watching thread, if that one reaps it
            self._release(self._children, child)
        if rebuild in self._running:
            self._running.remove(rebuild)
        self._remove_partial(rebuild.partial)
        rebuild.partial = None
        if rebuild.work is not None:
            shutil.rmtree(rebuild.work, ignore_errors=True)
            self._release(self._works, rebuild.work)
            rebuild.work = None

    @staticmethod
    def _kill(child):
        if child.returncode is None:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except OSError:
                pass

    def _hold(self, things, thing):
        with self._lock:
            things.add(thing)

    def _release(self, things, thing):
        with self._lock:
            things.discard(thing)

    def _abandon(self):
        """On a stop that ends the process at once (the signal thread, while the main thread is
        stuck): no rpmbuild left running, no partial file, no work folder."""
        with self._lock:
            children, works = list(self._children), list(self._works)
            partials = list(self._partials)
        for child in children:
            self._kill(child)
        # Dead before their files go, so that no last write makes one again (a killed process
        # ends at once; one stuck in the kernel is not waited for long).
        deadline = time.monotonic() + 0.2
        for child in children:
            try:
                child.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for work in works:
            shutil.rmtree(work, ignore_errors=True)
        for partial in partials:
            try:
                os.unlink(partial)
            except OSError:
                pass
