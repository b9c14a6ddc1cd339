# installtop-dnf.py: installtop's helper for dnf. It plans and runs one dnf transaction through
# dnf's Python API (dnf 4) and reports it as JSON Lines, so that installtop can show every
# package of it as it goes, and stop it only while stopping cannot harm the system.
#
# Invocation (with the system's Python, the one that has dnf; as root):
#   /usr/bin/python3 installtop-dnf.py MODE [--installroot DIR] [--releasever V]
#       [--setopt KEY=VALUE]... [--expect TOKEN]... [--keep-into DIR] REQUEST [PKG...]
# MODE     plan: resolve only. No package is downloaded or changed (dnf may refresh its
#          metadata cache and write its logs and history database, as dnf does).
#          run: resolve, download, check signatures, run the rpm transaction.
# REQUEST  install PKG...   upgrade [PKG...] (none: everything upgradable)   remove PKG...
#          undo ITEM...
#          PKG is a dnf package spec (name, name-version, NEVRA, provide, file path). As dnf's
#          remove command, remove resolves with the installed packages only, no repository
#          (with --keep-into the repositories are read, for keeping, but hidden from the
#          solver, and one that cannot be read is skipped, as if skip_if_unavailable).
#          undo puts back what a transaction changed. An ITEM /PATH/TO/FILE.rpm (an absolute
#          path) puts that package in as dnf install or downgrade ./FILE.rpm would (strict:
#          exactly that file, else depsolve): installed when no package of its NAME.ARCH is,
#          else the installed version is replaced by it (downgrade or upgrade; nothing when
#          that EVR is installed); its item's repo is @commandline. An ITEM -NAME.ARCH removes the
#          installed package of that name and arch as remove NAME.ARCH would (nothing when it
#          is not installed). As dnf history undo, undo reads the repositories too: a dependency
#          may come from them. The solver may remove other packages only when an item removes.
#          Any other ITEM: error other.
# --installroot DIR  acts on the system in DIR and never on the host: dnf's paths (config
#          DIR/etc/dnf/dnf.conf when it exists, repos DIR/etc/yum.repos.d, vars, persistdir,
#          logdir, cachedir) are inside DIR, and rpm's database is DIR/var/lib/rpm: the helper
#          runs with HOME set to a private folder (removed at exit) whose .rpmmacros says
#          %_dbpath /var/lib/rpm. Without it, the helper acts on / with dnf's configuration.
# --releasever V  $releasever; by default it is detected from the root, as dnf does.
# --setopt KEY=VALUE  as dnf's --setopt: KEY is a main option, or REPOID-GLOB.OPTION.
# --expect TOKEN  (repeatable) an item the operator confirmed, as ACTION:NAME.ARCH:OLD:NEW
#          with an absent EVR empty (an EVR may hold a colon: a token is compared whole, never
#          split). When given, the resolved transaction must be exactly this set of tokens,
#          else error `changed`, before anything is downloaded (plan checks it the same way).
# --keep-into DIR  (run mode only; in plan mode error other) keeps every installed package the
#          transaction takes away (the old version of an upgrade, downgrade or reinstall, a
#          removed or obsoleted package) as the rpm file DIR/NAME-VERSION-RELEASE.ARCH.rpm (no
#          epoch in the name; mode 0600, replacing a file of that name; DIR made with mode 0700
#          when missing), so that undo can put it back. Sources, in order: a file of that NEVRA
#          that is here already and matches its repository's checksum (dnf's cache, a local
#          repository): "cache"; else a download from a repository that offers that NEVRA:
#          "repository" (no download events; not left in dnf's cache unless keepcache). Of these
#          two only the installed build counts: the file's header digests (rpm's SHA1HEADER,
#          SHA256HEADER) are those rpm's database holds for the package. Else the package is
#          built anew from what is installed, as rpmrebuild does: "rebuilt" (unsigned, with its
#          own header digests, build time and host; its source rpm named after it). rpmbuild
#          (looked up on PATH; none: not-kept; one per CPU runs at once, at most 8, the events
#          still in the transaction's order) makes it in a folder of TMPDIR, with a private HOME,
#          from a spec written from the header in rpm's database (name, epoch, version,
#          release, arch, summary, description, license, URL and such; every dependency with its
#          flags, rpmlib() ones apart; the scriptlets with their interpreters and flags, bodies
#          as stored) and from the package's files copied from the root with their times (owner,
#          mode, file flags, %verify, %lang, %caps from the header; no content for a %ghost;
#          nothing stripped, compiled or added; payload gzip level 1). Each file must be what
#          rpm installed (its digest, its link target), but a %config file, which is taken as it
#          is now, edits included: the package put back carries them as its own, so rpm then
#          takes the edited file for unmodified (rpm -V is clean; a later upgrade replaces it
#          with no .rpmnew or .rpmsave). The built file is read back and must say what the
#          installed header says (NEVRA; every file's mode, owner, flags, verify flags, size,
#          digest, mtime, link, hard links, language, capabilities, color; the scriptlets; the
#          dependencies; summary, description, license). Not rebuilt (not-kept, the reason says
#          why): triggers or file triggers, a relocatable package, SELinux policies, a device
#          file, pipe or socket, a file that is missing or not as rpm installed it (but
#          %config), a file rpm did not install (nodocs, a language left out), anything a spec
#          cannot say as the header has it, a built package that differs. Keeping happens
#          after the downloads, signatures, dnf's check and rpm's test transaction, right before
#          rpm-start (kept, not-kept). Nothing that goes wrong in keeping fails the transaction
#          or keeps it from running: a package it cannot keep is a not-kept event (a stop is a
#          stop).
# dnf plugins are not loaded.
#
# Its folder: installtop writes the script into a folder of its own named installtop-dnf-*,
# which is also the helper's TMPDIR, and removes it when the helper ends. A helper whose
# parent is gone when it ends (installtop killed) removes that folder itself.
# Output: one JSON object per line on descriptor 3 (on standard output when 3 is not open),
# flushed at once; every object has "event". dnf's logging goes to standard error, and to
# dnf's log files in logdir as dnf's own. Standard input is /dev/null, so that rpm never waits
# on a terminal for its lock.
#
# Events of both modes:
#   {"event":"item","action":A,"name":N,"arch":R,"old":EVR|null,"new":EVR|null,
#    "size":BYTES|null,"repo":ID|null}
#       once per package of the transaction, before anything runs, in dnf's order (rpm orders
#       the transaction only once the packages are downloaded). A is install, upgrade,
#       downgrade, reinstall, remove or obsoleted. EVR is [E:]V-R, the epoch only when
#       nonzero. size is the new package's download size, repo its repository (both null for
#       remove and obsoleted). A remove of a package the request did not name has
#       "reason":"dependency" (it needs a removed package, or it was a dependency that nothing
#       needs any more). obsoleted is an installed package that a new one replaces by
#       obsoleting it, with "by": the new package's name; its token is obsoleted:N.R:OLD:
#       "protected":true when dnf refuses to remove the package: its name is in dnf's
#       protected_packages (protected.d, the root's dnf.conf), or it is the running kernel
#       (protect_running_kernel); absent otherwise. installtop's --confirm refuses to arm a
#       job whose revert would have to remove such a package.
#   {"event":"planned","count":N,"download":BYTES,"already":BYTES}
#       after the items. download: the size of all new packages; already: the part of it
#       whose file is here already (in the cache or a local repository; its checksum is checked by the run).
#       An empty transaction is count 0 and exit 0 (in run mode too: nothing else follows).
#   {"event":"error","kind":K,"message":M}  the last event; exit 2, nothing was changed (but
#       see exit 1 below for the one error after rpm-start). K:
#       unknown     no package matches a PKG (dnf's "No match for argument: foo", one a line);
#                   an undo FILE.rpm that does not exist or is not an rpm (one a line)
#       depsolve    dnf's problem text
#       check       rpm's check or test transaction refused it (file conflicts, disk space)
#       locked      another process holds dnf's rpmdb lock or rpm's transaction lock (the
#                   message names the pid), or dnf's metadata or download lock
#       root        --installroot is missing or not a folder
#       permission  not run as root (both modes)
#       repo        a repository cannot be read (the message names it)
#       changed     the transaction differs from --expect (the message lists the tokens)
#       download    a package could not be downloaded (the message names it)
#       signature   a package's signature is bad or missing, or its key cannot be imported
#       other       anything else, a bad invocation too
#       An error may follow planned (changed, download, signature, check, locked).
# Run mode, after planned:
#   {"event":"download","name":N,"arch":R,"done":BYTES,"total":BYTES}
#       at most 10 a second per package, and always its last one. A package that needs no
#       download (see already) has no download events.
#   {"event":"downloaded","name":N,"arch":R,"ok":BOOL,"message":M|null}
#       a failed download is then error kind download (exit 2, nothing installed).
#   Then signatures are checked where the repository asks for it; a key missing from rpm's
#   database is imported from the repository's gpgkey, as dnf -y does.
#   With --keep-into, after dnf's check and rpm's test transaction, one of these two per
#   installed package the transaction takes away, in the transaction's order (EVR: the
#   installed version, as in item):
#   {"event":"kept","name":N,"arch":R,"evr":EVR,"file":PATH,"size":BYTES,"source":S}
#       PATH: the absolute path of the kept file; S: cache, repository or rebuilt (see
#       --keep-into). A rebuilt one that took %config files as edited adds "edited":[PATH,...]
#       (the files' paths in the root): rpm will take those edits for the package's own.
#   {"event":"not-kept","name":N,"arch":R,"evr":EVR,"reason":M}
#       M in words, e.g. "no repository holds lab-a-1.0-1.noarch any more", "the repository's
#       lab-a-1.0-1.noarch is another build than the installed one (repository R)", "cannot
#       download it: ...", "cannot write DIR: ..." (several reasons: joined by "; "), then why
#       it was not rebuilt either: ", and rpmbuild (the rpm-build package) is not installed to
#       rebuild it", or ", and it cannot be rebuilt: " and the first cause, e.g. "it has
#       triggers, which installtop does not rebuild", "/usr/bin/x differs from what rpm
#       installed", "/usr/bin/x is missing (deleted since rpm installed it)", "rpmbuild failed:
#       " and rpmbuild's first error line, "in the rebuilt package, FILE has mode M, not M".
#   {"event":"rpm-start","count":N}
#       right before rpm's transaction, after dnf's check, rpm's test transaction (which
#       changes nothing and can still be stopped) and keeping. From here on a stop cannot cut
#       (Signals).
#       N: rpm's transaction elements (the version an upgrade replaces is an element of its
#       own), the "steps" of progress.
#   {"event":"progress","name":N|null,"arch":R|null,"action":PA,"done":n|null,"total":n|null,
#    "step":k|null,"steps":K|null}
#       dnf's TransactionProgress.progress(package, action, ti_done, ti_total, ts_done,
#       ts_total); per package and action a first, a last, and at most 10 a second. PA from
#       dnf's action: PKG_INSTALL and PKG_OBSOLETE install, PKG_UPGRADE upgrade,
#       PKG_DOWNGRADE downgrade, PKG_REINSTALL reinstall, PKG_REMOVE remove, PKG_OBSOLETED
#       obsoleted, PKG_UPGRADED, PKG_DOWNGRADED, PKG_REINSTALLED and PKG_CLEANUP cleanup
#       (erasing the replaced version), PKG_SCRIPTLET scriptlet (trigger when rpm runs a
#       trigger; with "scriptlet":S, which one: %pre, %post, %preun, %postun, %pretrans,
#       %posttrans, %triggerin...), PKG_VERIFY verify (dnf's pass over the items after rpm),
#       and, not dnf's, read (rpm opens the package's file, from dnf's cache or a local
#       repository, to install it; it verified every package's digests and signature before
#       its first element) and erase (rpm begins an element that erases: a removal, an
#       obsoleted package, the version an upgrade replaces), both with done and total null.
#       TRANS_PREPARATION
#       prepare (name null: rpm prepares element `done` of `total`), TRANS_POST posttrans
#       (name and numbers null: dnf tells it when rpm is done with the last element's files;
#       that element's %post and the %posttrans scriptlets still follow). Any other action:
#       dnf's number, as a string. For an element rpm installs: read, %pre, its files (0 of
#       total first, then by rpm's count, all at once for a small payload), %post; for one it
#       erases: erase, %preun, its files, %postun.
#   {"event":"scriptlet-output","name":N,"arch":R,"text":LINE,"stream":"stdout"|"stderr"}
#       one per line a scriptlet wrote: what rpm writes to dnf's script file (a shell
#       scriptlet's stdout and stderr, rpm's own messages such as a Lua error: stream stdout),
#       what Lua scriptlets print() (rpm 4.18 and older print to the process's standard
#       output: stdout) and what they write to descriptor 2 (io.stderr: stderr). Descriptors
#       1 and 2 go to files of their own while rpm runs (the helper's own words and dnf's
#       logging go to a duplicate of 2, unaffected), so no scriptlet line reaches installtop
#       but as this event. Attribution: the package whose element rpm is working on (rpm's
#       ELEM_PROGRESS callback), or the package a scriptlet belongs to when rpm names it
#       (%pre, %post, %pretrans, %posttrans); a trigger's output goes to the element that set
#       it off. Output is read at rpm's callbacks: a scriptlet's lines come when it ends, its
#       stdout lines before its stderr lines.
#   {"event":"scriptlet-error","name":N,"arch":R,"scriptlet":S,"fatal":BOOL,"message":M}
#       rpm reports a failing scriptlet (S like %post). fatal: it stopped the package's
#       install or erase (%pre, %preun); otherwise the package is in place all the same.
#   {"event":"rpm-end","ok":BOOL,"errors":[M,...]}
#       ok: rpm ran every element and every scriptlet without error. errors: dnf's and rpm's
#       messages (a failed scriptlet, a failed element, rpm refusing to start).
#   {"event":"final","name":N,"arch":R,"installed":[EVR,...]}
#       for every NAME.ARCH of the items, read from a fresh open of rpm's database after the
#       transaction: empty when none is installed; two entries are a duplicate.
#   exit 0: all succeeded; exit 1: rpm's transaction ran (or was due to) and something
#   failed: an element, a scriptlet (a failed %post too, although its package is installed),
#   rpm refusing to start, or the helper itself after rpm-start (error kind other, exit 1).
#
# Signals: SIGINT and SIGTERM are blocked in every thread from the start and taken by one
# thread (sigwait): neither librepo's own SIGINT handler nor a Python handler ever runs, so no
# exception can be raised inside a callback that C code made.
#   Before rpm-start, a stop ends the helper: a download under way is interrupted (the
#   helper sets librepo's interrupt flag, as librepo's SIGINT handler would; librepo gives up
#   within half a second), the work ends at its next step, dnf's locks are released, and the
#   helper emits {"event":"stopped","before":STAGE} and exits 3; nothing is installed.
#   STAGE is the stage the stop cut short: "resolve" (configuration, metadata, resolving:
#   nothing downloaded) or "download" (downloads, signatures, rpm's test transaction,
#   keeping: a download of a version to keep is interrupted as the others, the rebuilds
#   under way are ended (each rpmbuild and what it started are killed) and their files
#   removed; the files told as kept stay in DIR, one copied or built but not told is removed).
#   When a step cannot be interrupted and outlasts 3 seconds, the helper emits the same
#   event, removes dnf's lock files that name it, and exits 3 at once.
#   After rpm-start a stop is not obeyed: cutting rpm's transaction leaves duplicate entries
#   in its database. The helper emits {"event":"stop-deferred"} once, at once, rpm runs to its
#   end, and the helper ends as usual (rpm-end, final, exit 0 or 1).

import collections
import ctypes
import fcntl
import hashlib
import json
import logging
import os
import queue
import re
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time

EXIT_OK, EXIT_FAILED, EXIT_ERROR, EXIT_STOPPED = 0, 1, 2, 3
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
# How long a stop before rpm-start waits for the work to reach its next step.
STOP_GRACE_SECONDS = 3.0
# Download and rpm progress: at most one event per package in this time (and its last one).
PROGRESS_INTERVAL = 0.1


class HelperError(Exception):
    """Ends the helper with an error event of this kind (exit 2)."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


class Stopped(Exception):
    """A stop came before rpm-start: the helper ends with the stopped event (exit 3)."""


class EventWriter:
    """Writes the protocol's JSON Lines; both the main thread and the signal thread write."""

    def __init__(self):
        try:
            os.fstat(3)
            fd = 3
        except OSError:
            # A copy of standard output: the transaction redirects descriptor 1 for a while.
            fd = os.dup(1)
        self._file = os.fdopen(fd, 'w', buffering=1, encoding='utf-8')
        self._lock = threading.Lock()
        self._broken = False

    def emit(self, event, **fields):
        line = json.dumps(dict(event=event, **fields), ensure_ascii=False, separators=(',', ':'))
        with self._lock:
            if self._broken:
                return
            try:
                self._file.write(line + '\n')
                self._file.flush()
            except OSError:
                # installtop is gone; the work goes on as it was confirmed.
                self._broken = True

    def error(self, kind, message):
        self.emit('error', kind=kind, message=message)


class Request:
    """The parsed command line."""

    MODES = ('plan', 'run')
    REQUESTS = ('install', 'upgrade', 'remove', 'undo')

    def __init__(self, argv):
        self.installroot = None
        self.releasever = None
        self.setopts = []
        self.expect = None
        self.keep_into = None
        words = []
        options = {'--installroot', '--releasever', '--setopt', '--expect', '--keep-into'}
        args = iter(argv)
        for arg in args:
            name, equals, value = arg.partition('=')
            if name not in options:
                words.append(arg)
                continue
            if not equals:
                value = next(args, None)
                if value is None:
                    raise HelperError('other', 'usage: %s needs a value' % name)
            if name == '--installroot':
                self.installroot = os.path.abspath(value)
            elif name == '--releasever':
                self.releasever = value
            elif name == '--keep-into':
                self.keep_into = os.path.abspath(value)
            elif name == '--setopt':
                if '=' not in value:
                    raise HelperError('other', 'usage: --setopt needs KEY=VALUE: %s' % value)
                self.setopts.append(tuple(value.split('=', 1)))
            else:
                self.expect = (self.expect or set()) | {value}
        if len(words) < 2 or words[0] not in self.MODES or words[1] not in self.REQUESTS:
            raise HelperError('other', 'usage: installtop-dnf.py plan|run [--installroot DIR] '
                              '[--releasever V] [--setopt KEY=VALUE]... [--expect TOKEN]... '
                              '[--keep-into DIR] install|upgrade|remove|undo [PKG...]')
        self.mode, self.action, self.specs = words[0], words[1], words[2:]
        if not self.specs and self.action != 'upgrade':
            raise HelperError('other', 'usage: %s needs at least one package' % self.action)
        if self.keep_into is not None and self.mode != 'run':
            # A plan takes nothing away, so it has nothing to keep.
            raise HelperError('other', 'usage: --keep-into is for run mode only')
        if self.action == 'undo':
            for item in self.specs:
                if not is_undo_file(item) and undo_removal(item) is None:
                    raise HelperError('other', 'usage: an undo item is /PATH/TO/FILE.rpm or '
                                      '-NAME.ARCH, not %s' % item)


def is_undo_file(item):
    """An undo item that puts a package file back in: an absolute path."""
    return item.startswith('/')


def undo_removal(item):
    """The NAME.ARCH that an undo item -NAME.ARCH removes, else None."""
    if not item.startswith('-'):
        return None
    name, dot, arch = item[1:].rpartition('.')
    return item[1:] if name and dot and arch else None


class StopControl:
    """Takes SIGINT and SIGTERM in a thread of its own and decides what a stop means now.

    The signals are blocked before any other thread exists, so every thread inherits the
    mask and only sigwait receives them: librepo's SIGINT handler (installed during
    downloads) never runs, rpm's signal blocking during its transaction changes nothing,
    and no KeyboardInterrupt can land inside a callback that C code called (an exception
    escaping rpm's callback makes rpm-python exit the process mid-transaction; one escaping
    a libdnf download callback crosses C++ and C frames).
    """

    def __init__(self, events):
        self._events = events
        self._lock = threading.Lock()
        self.stage = 'resolve'
        self._requested = False
        self._deferred_told = False
        self._stopped_told = False
        self._cleanups = []
        self.librepo_interrupt = None
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        # A signal whose disposition is "ignore" (as inherited from some parents) is discarded,
        # blocked or not, and would never reach sigwait.
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)
        threading.Thread(target=self._wait, name='signals', daemon=True).start()

    def on_forced_exit(self, cleanup):
        """Registers work to do when a stop has to end the process without the main thread."""
        self._cleanups.append(cleanup)

    def _wait(self):
        while True:
            signal.sigwait(STOP_SIGNALS)
            with self._lock:
                if self.stage == 'rpm':
                    if not self._deferred_told:
                        self._deferred_told = True
                        self._events.emit('stop-deferred')
                    continue
                if self._requested:
                    continue
                self._requested = True
            if self.librepo_interrupt is not None:
                self.librepo_interrupt.value = 1
            threading.Thread(target=self._force_exit_later, name='stop-grace', daemon=True).start()

    def _force_exit_later(self):
        time.sleep(STOP_GRACE_SECONDS)
        self.tell_stopped()
        for cleanup in self._cleanups:
            try:
                cleanup()
            except Exception as e:  # the process ends now whatever happens
                print('installtop-dnf: cleanup on stop failed: %s' % e, file=sys.stderr)
        os._exit(EXIT_STOPPED)

    def tell_stopped(self):
        with self._lock:
            if self._stopped_told:
                return
            self._stopped_told = True
            self._events.emit('stopped', before=self.stage)

    def checkpoint(self):
        """Ends the work here (Stopped) when a stop came."""
        with self._lock:
            if self._requested:
                raise Stopped()

    def enter(self, stage, **event):
        """Moves to a stage, unless a stop came; the stage's event (if any) is emitted with it,
        so that the signal thread sees the stage and the event together."""
        with self._lock:
            if self._requested:
                raise Stopped()
            self.stage = stage
            if event:
                self._events.emit(**event)


def make_private_home():
    """A HOME whose .rpmmacros puts rpm's database inside the installroot.

    rpm reads ~/.rpmmacros once, when it is first imported; Debian's rpm defaults %_dbpath to
    ~/.rpmdb, so with the real HOME it would create /root/.rpmdb. Must run before rpm or dnf is
    imported.
    """
    home = tempfile.mkdtemp(prefix='installtop-dnf-home-')
    with open(os.path.join(home, '.rpmmacros'), 'w') as macros:
        macros.write('%_dbpath /var/lib/rpm\n')
    os.environ['HOME'] = home
    return home


# ---- Start: what must happen before dnf and rpm are imported ----

EVENTS = EventWriter()
STOP = StopControl(EVENTS)
try:
    REQUEST = Request(sys.argv[1:])
    if os.geteuid() != 0:
        raise HelperError('permission', 'installtop-dnf must run as root')
    if REQUEST.installroot is not None and not os.path.isdir(REQUEST.installroot):
        raise HelperError('root', 'installroot %s is missing or not a folder' % REQUEST.installroot)
except HelperError as early:
    EVENTS.error(early.kind, early.message)
    sys.exit(EXIT_ERROR)
PRIVATE_HOME = make_private_home() if REQUEST.installroot is not None else None
if PRIVATE_HOME is not None:
    STOP.on_forced_exit(lambda: shutil.rmtree(PRIVATE_HOME, ignore_errors=True))
# rpm waits for its transaction lock when standard input is a terminal; the helper never waits.
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)

import dnf  # noqa: E402  (after the private HOME: see make_private_home)
import dnf.callback  # noqa: E402
import dnf.conf  # noqa: E402
import dnf.exceptions  # noqa: E402
import dnf.lock  # noqa: E402
import dnf.rpm  # noqa: E402
import hawkey  # noqa: E402
import libdnf.transaction  # noqa: E402
import rpm  # noqa: E402

# ---- The transaction's items ----

_ACTIONS = libdnf.transaction
FORWARD_WORDS = {_ACTIONS.TransactionItemAction_INSTALL: 'install',
                 _ACTIONS.TransactionItemAction_UPGRADE: 'upgrade',
                 _ACTIONS.TransactionItemAction_DOWNGRADE: 'downgrade',
                 _ACTIONS.TransactionItemAction_REINSTALL: 'reinstall',
                 _ACTIONS.TransactionItemAction_OBSOLETE: 'install'}
# The installed version that a forward action replaces: part of the forward item ("old").
REPLACED_ACTIONS = {_ACTIONS.TransactionItemAction_UPGRADED,
                    _ACTIONS.TransactionItemAction_DOWNGRADED,
                    _ACTIONS.TransactionItemAction_REINSTALLED}


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
            if tsi.action != _ACTIONS.TransactionItemAction_REASON_CHANGE]
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
        elif tsi.action == _ACTIONS.TransactionItemAction_OBSOLETED:
            replacer = replacer_of.get(pkg)
            items.append(Item('obsoleted', pkg, old=package_evr(pkg),
                              by=replacer.name if replacer is not None else None))
        elif tsi.action == _ACTIONS.TransactionItemAction_REMOVE:
            items.append(Item('remove', pkg, old=package_evr(pkg),
                              dependency=tsi.reason != _ACTIONS.TransactionItemReason_USER))
    return items


def needs_no_download(pkg):
    """True when the package's file is already here: in the cache, or in a local repository
    (dnf reads those in place). Not verified here: reading every file to check its checksum
    made a plan of a large cached upgrade cost a read of all of it; the run verifies them."""
    return os.path.exists(pkg.localPkg())


# ---- Progress reporting ----

class DownloadReporter(dnf.callback.DownloadProgress):
    """dnf's download callbacks as download/downloaded events, throttled per package."""

    def __init__(self, events):
        super().__init__()
        self._events = events
        self._last = {}

    def start(self, total_files, total_size, total_drpms=0):
        pass

    def progress(self, payload, done):
        pkg = payload.pkg
        done = int(done)  # librepo counts in a double
        now = time.monotonic()
        total = payload.download_size
        last_time, last_done = self._last.get(pkg, (0.0, None))
        if done == last_done:
            return
        if done >= total or now - last_time >= PROGRESS_INTERVAL:
            self._last[pkg] = (now, done)
            self._events.emit('download', name=pkg.name, arch=pkg.arch, done=done, total=total)

    def end(self, payload, status, msg):
        if status == dnf.callback.STATUS_MIRROR:
            return  # one mirror failed; librepo goes on with the next one
        pkg = payload.pkg
        ok = status in (dnf.callback.STATUS_OK, dnf.callback.STATUS_ALREADY_EXISTS)
        total = payload.download_size
        if ok and self._last.get(pkg, (0.0, None))[1] != total:
            self._events.emit('download', name=pkg.name, arch=pkg.arch, done=total, total=total)
        self._events.emit('downloaded', name=pkg.name, arch=pkg.arch, ok=ok,
                          message=None if ok else msg)


PROGRESS_WORDS = {dnf.callback.PKG_INSTALL: 'install', dnf.callback.PKG_UPGRADE: 'upgrade',
                  dnf.callback.PKG_DOWNGRADE: 'downgrade', dnf.callback.PKG_REINSTALL: 'reinstall',
                  dnf.callback.PKG_OBSOLETE: 'install', dnf.callback.PKG_REMOVE: 'remove',
                  dnf.callback.PKG_OBSOLETED: 'obsoleted', dnf.callback.PKG_UPGRADED: 'cleanup',
                  dnf.callback.PKG_DOWNGRADED: 'cleanup', dnf.callback.PKG_REINSTALLED: 'cleanup',
                  dnf.callback.PKG_CLEANUP: 'cleanup', dnf.callback.PKG_VERIFY: 'verify',
                  dnf.callback.PKG_SCRIPTLET: 'scriptlet',
                  dnf.callback.TRANS_PREPARATION: 'prepare', dnf.callback.TRANS_POST: 'posttrans'}
# rpm's scriptlet tags as spec files name them; the others are the tag name in lower case.
SCRIPTLET_NAMES = {'PREIN': '%pre', 'POSTIN': '%post'}


def scriptlet_name(tag):
    """%pre, %post, %preun, %posttrans, %triggerin... from rpm's tag name (PREIN, POSTUN...)."""
    return SCRIPTLET_NAMES.get(tag, '%' + tag.lower())


class DescriptorCapture:
    """A descriptor (1 or 2) goes to a temporary file while rpm's transaction runs.

    rpm (4.18 and older) has Lua scriptlets print() to the C library's stdout, not to dnf's
    script file, and io.stderr:write() goes to descriptor 2: left alone, it would reach
    installtop on a pipe of its own, which installtop reads apart from the events, so its lines
    could not be told from which package they came (a fast transaction's next package is begun
    before they are read). A file, unlike a pipe, can never fill up and block a scriptlet; it is
    read (with pread: the writer's offset is left alone) at every rpm callback, after flushing
    the C library's buffers, so that what a scriptlet wrote is read before rpm moves on.
    """

    def __init__(self, fd):
        self._fd = fd
        self._libc = ctypes.CDLL(None)
        self._libc.fflush(None)
        self._saved = os.dup(fd)
        self._file = tempfile.TemporaryFile()
        os.dup2(self._file.fileno(), fd)
        self._offset = 0
        self._partial = b''

    def read_lines(self, final=False):
        self._libc.fflush(None)
        data = self._partial
        while True:
            chunk = os.pread(self._file.fileno(), 65536, self._offset)
            if not chunk:
                break
            self._offset += len(chunk)
            data += chunk
        lines = data.split(b'\n')
        self._partial = lines.pop()  # an unfinished line waits for its end
        if final and self._partial:
            lines.append(self._partial)
            self._partial = b''
        return [line.decode('utf-8', 'replace') for line in lines]

    def close(self):
        lines = self.read_lines(final=True)
        os.dup2(self._saved, self._fd)
        os.close(self._saved)
        self._file.close()
        return lines


class RpmReporter(dnf.callback.TransactionProgress):
    """Reports rpm's transaction: dnf's TransactionProgress display plus a wrapper around the
    raw rpm callback that dnf hands to rpm (see HelperBase._run_transaction).

    The wrapper knows what dnf's display is not told: which transaction element rpm works on,
    the scriptlet tag (which scriptlet runs), whether a failing scriptlet was fatal, when rpm
    opens a package's file to install it (read) and when it begins to erase one (erase), so that a package's bar can move through
    each phase even when rpm writes all of a small payload at once. Nothing may escape from
    here: rpm-python exits the process when an rpm callback raises. Note that rpm runs
    scriptlet callbacks chrooted into the installroot: no file is opened by name here.
    """

    def __init__(self, events):
        super().__init__()
        self._events = events
        self.elements = []
        self.owner = (None, None)
        self._scriptlet_word = 'scriptlet'
        self._scriptlet_name = None
        # rpm verified every package and prepared the transaction (TRANS_STOP): what follows
        # is its elements.
        self._in_elements = False
        self.errors = []
        self.captures = {}
        self._last_progress = {}

    # -- the raw rpm callback --

    def wrap(self, dnf_callback):
        def callback(what, amount, total, key, data):
            try:
                self._before(what, amount, key)
            except Exception as e:
                print('installtop-dnf: rpm callback: %r' % e, file=sys.stderr)
            result = dnf_callback(what, amount, total, key, data)
            try:
                if what == rpm.RPMCALLBACK_SCRIPT_ERROR:
                    self._scriptlet_error(amount, total)
            except Exception as e:
                print('installtop-dnf: rpm callback: %r' % e, file=sys.stderr)
            return result
        return callback

    def _before(self, what, amount, key):
        # What was printed so far belongs to the package rpm worked on until now.
        self.flush_output()
        if what == rpm.RPMCALLBACK_ELEM_PROGRESS and 0 <= amount < len(self.elements):
            element = self.elements[amount]
            self.owner = (element.N(), element.A())
            if element.Type() == rpm.TR_REMOVED:
                # An erase has no file to read: its element's start is its first step.
                self._events.emit('progress', name=self.owner[0], arch=self.owner[1], action='erase',
                                  done=None, total=None, step=None, steps=None)
        elif hasattr(key, 'pkg'):
            self.owner = (key.pkg.name, key.pkg.arch)
        if what == rpm.RPMCALLBACK_TRANS_STOP:
            self._in_elements = True
        if what == rpm.RPMCALLBACK_SCRIPT_START:
            tag = rpm.tagnames.get(amount, '')
            self._scriptlet_word = 'trigger' if 'TRIGGER' in tag else 'scriptlet'
            self._scriptlet_name = scriptlet_name(tag) if tag else None
        elif what == rpm.RPMCALLBACK_INST_OPEN_FILE and self._in_elements and self.owner[0]:
            # rpm opens the file of the element it begins, just before its ELEM_PROGRESS (it
            # opened every one before, when it verified them all: not a step of one package).
            self._events.emit('progress', name=self.owner[0], arch=self.owner[1], action='read',
                              done=None, total=None, step=None, steps=None)

    def _scriptlet_error(self, tag, rc):
        scriptlet = scriptlet_name(rpm.tagnames.get(tag, 'UNKNOWN'))
        fatal = rc != rpm.RPMRC_OK
        name, arch = self.owner
        self._events.emit('scriptlet-error', name=name, arch=arch, scriptlet=scriptlet,
                          fatal=fatal, message='%s scriptlet of %s.%s failed%s' % (
                              scriptlet, name, arch,
                              '' if fatal else ' (rpm went on: the package is in place)'))

    def flush_output(self):
        for stream, capture in self.captures.items():
            self._output_lines(capture.read_lines(), stream)

    def _output_lines(self, lines, stream='stdout'):
        name, arch = self.owner
        for line in lines:
            self._events.emit('scriptlet-output', name=name, arch=arch, text=line, stream=stream)

    def start_capture(self):
        self.captures = {'stdout': DescriptorCapture(1), 'stderr': DescriptorCapture(2)}

    def stop_capture(self):
        captures, self.captures = self.captures, {}
        for stream, capture in captures.items():
            self._output_lines(capture.close(), stream)

    # -- dnf's TransactionProgress --

    def progress(self, package, action, ti_done, ti_total, ts_done, ts_total):
        word = PROGRESS_WORDS.get(action, str(action))
        if action == dnf.callback.PKG_SCRIPTLET:
            word = self._scriptlet_word
        named = hasattr(package, 'name')
        # rpm reports every chunk of a package's files; a first, a last, and 10 a second do.
        key = (package.name, package.arch, word) if named else (None, None, word)
        now = time.monotonic()
        last = self._last_progress.get(key)
        finished = ti_done is None or ti_total is None or ti_done >= ti_total
        if last is not None and not finished and now - last < PROGRESS_INTERVAL:
            return
        self._last_progress[key] = now
        extra = {}
        if action == dnf.callback.PKG_SCRIPTLET and self._scriptlet_name is not None:
            extra['scriptlet'] = self._scriptlet_name
        self._events.emit('progress', name=package.name if named else None,
                          arch=package.arch if named else None, action=word,
                          done=ti_done, total=ti_total, step=ts_done, steps=ts_total, **extra)

    def scriptout(self, msgs):
        if msgs:
            text = msgs.decode('utf-8', 'replace') if isinstance(msgs, bytes) else msgs
            self._output_lines(text.splitlines())

    def error(self, message):
        self.errors.append(message)


class RpmErrorLog(logging.Handler):
    """dnf logs, rather than raises, why rpm's transaction could not start (rpm's own
    messages among them): after rpm-start, what dnf logs as an error goes to rpm-end."""

    def __init__(self, reporter):
        super().__init__(logging.ERROR)
        self._reporter = reporter

    def emit(self, record):
        if STOP.stage == 'rpm':
            self._reporter.errors.append(record.getMessage())


# ---- Keeping what the transaction takes away (--keep-into) ----

# The installed packages a transaction takes away: the version that an upgrade, downgrade or
# reinstall replaces, a removed package, an obsoleted one.
TAKEN_ACTIONS = REPLACED_ACTIONS | {_ACTIONS.TransactionItemAction_OBSOLETED,
                                    _ACTIONS.TransactionItemAction_REMOVE}


def package_label(pkg):
    """NAME-EVR.ARCH, as the not-kept reasons name a package."""
    return '%s-%s.%s' % (pkg.name, package_evr(pkg), pkg.arch)


def header_identity(header):
    """What tells one build of a NEVRA from another: the digests of its header, which rpm's
    database keeps as they were in the package file (a rebuild has other ones). None when the
    header has neither."""
    identity = (header[rpm.RPMTAG_SHA1HEADER], header[rpm.RPMTAG_SHA256HEADER])
    return identity if any(identity) else None


class KeepFailed(Exception):
    """One package cannot be kept; the message is its not-kept reason."""


class RebuildRefused(Exception):
    """The installed package cannot be rebuilt; the message says why, as a clause ("it has
    triggers, ...")."""


class RpmbuildMissing(RebuildRefused):
    """rpmbuild is not installed."""


# What rpmbuild runs with: the lookup is on the helper's PATH (a PATH without rpmbuild hides it).
REBUILD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
RPMSENSE_SENSE = rpm.RPMSENSE_LESS | rpm.RPMSENSE_GREATER | rpm.RPMSENSE_EQUAL
RPMSENSE_META = 1 << 29  # Requires(meta); rpm's Python module has no name for it
# Bits rpmbuild sets on the dependencies its generators find: they change nothing at install.
RPMSENSE_IGNORED = rpm.RPMSENSE_FIND_REQUIRES | rpm.RPMSENSE_FIND_PROVIDES
SENSE_OPERATORS = {rpm.RPMSENSE_LESS: '<', rpm.RPMSENSE_GREATER: '>', rpm.RPMSENSE_EQUAL: '=',
                   rpm.RPMSENSE_LESS | rpm.RPMSENSE_EQUAL: '<=',
                   rpm.RPMSENSE_GREATER | rpm.RPMSENSE_EQUAL: '>='}
# The words of Requires(WORD,...) in a spec, for the flags a requirement has in the header.
REQUIRE_QUALIFIERS = ((rpm.RPMSENSE_INTERP, 'interp'), (rpm.RPMSENSE_SCRIPT_PRE, 'pre'),
                      (rpm.RPMSENSE_SCRIPT_POST, 'post'), (rpm.RPMSENSE_SCRIPT_PREUN, 'preun'),
                      (rpm.RPMSENSE_SCRIPT_POSTUN, 'postun'),
                      (rpm.RPMSENSE_SCRIPT_VERIFY, 'verify'), (rpm.RPMSENSE_PRETRANS, 'pretrans'),
                      (rpm.RPMSENSE_POSTTRANS, 'posttrans'), (RPMSENSE_META, 'meta'))
# The spec's dependency tags and the header's.
DEPENDENCY_TAGS = (
    ('Requires', rpm.RPMTAG_REQUIRENAME, rpm.RPMTAG_REQUIREFLAGS, rpm.RPMTAG_REQUIREVERSION),
    ('Provides', rpm.RPMTAG_PROVIDENAME, rpm.RPMTAG_PROVIDEFLAGS, rpm.RPMTAG_PROVIDEVERSION),
    ('Conflicts', rpm.RPMTAG_CONFLICTNAME, rpm.RPMTAG_CONFLICTFLAGS, rpm.RPMTAG_CONFLICTVERSION),
    ('Obsoletes', rpm.RPMTAG_OBSOLETENAME, rpm.RPMTAG_OBSOLETEFLAGS, rpm.RPMTAG_OBSOLETEVERSION),
    ('Recommends', rpm.RPMTAG_RECOMMENDNAME, rpm.RPMTAG_RECOMMENDFLAGS,
     rpm.RPMTAG_RECOMMENDVERSION),
    ('Suggests', rpm.RPMTAG_SUGGESTNAME, rpm.RPMTAG_SUGGESTFLAGS, rpm.RPMTAG_SUGGESTVERSION),
    ('Supplements', rpm.RPMTAG_SUPPLEMENTNAME, rpm.RPMTAG_SUPPLEMENTFLAGS,
     rpm.RPMTAG_SUPPLEMENTVERSION),
    ('Enhances', rpm.RPMTAG_ENHANCENAME, rpm.RPMTAG_ENHANCEFLAGS, rpm.RPMTAG_ENHANCEVERSION),
    ('OrderWithRequires', rpm.RPMTAG_ORDERNAME, rpm.RPMTAG_ORDERFLAGS, rpm.RPMTAG_ORDERVERSION))
# Scriptlets: the spec's section, the header's body, interpreter and flags.
SCRIPTLET_TAGS = (
    ('%pretrans', rpm.RPMTAG_PRETRANS, rpm.RPMTAG_PRETRANSPROG, rpm.RPMTAG_PRETRANSFLAGS),
    ('%pre', rpm.RPMTAG_PREIN, rpm.RPMTAG_PREINPROG, rpm.RPMTAG_PREINFLAGS),
    ('%post', rpm.RPMTAG_POSTIN, rpm.RPMTAG_POSTINPROG, rpm.RPMTAG_POSTINFLAGS),
    ('%preun', rpm.RPMTAG_PREUN, rpm.RPMTAG_PREUNPROG, rpm.RPMTAG_PREUNFLAGS),
    ('%postun', rpm.RPMTAG_POSTUN, rpm.RPMTAG_POSTUNPROG, rpm.RPMTAG_POSTUNFLAGS),
    ('%posttrans', rpm.RPMTAG_POSTTRANS, rpm.RPMTAG_POSTTRANSPROG, rpm.RPMTAG_POSTTRANSFLAGS),
    ('%verifyscript', rpm.RPMTAG_VERIFYSCRIPT, rpm.RPMTAG_VERIFYSCRIPTPROG,
     rpm.RPMTAG_VERIFYSCRIPTFLAGS))
# A scriptlet's flags (rpm's RPMSCRIPT_FLAG_EXPAND, _QFORMAT) and their options in a spec.
SCRIPTLET_FLAG_OPTIONS = ((1, '-e'), (2, '-q'))
# What a spec does not say and installtop does not rebuild, with what the reason calls it.
TRIGGER_TAGS = (rpm.RPMTAG_TRIGGERNAME, rpm.RPMTAG_TRIGGERSCRIPTS, rpm.RPMTAG_TRIGGERSCRIPTPROG,
                rpm.RPMTAG_FILETRIGGERNAME, rpm.RPMTAG_FILETRIGGERSCRIPTS,
                rpm.RPMTAG_TRANSFILETRIGGERNAME, rpm.RPMTAG_TRANSFILETRIGGERSCRIPTS)
UNREBUILT_TAGS = ((rpm.RPMTAG_PREFIXES, 'it is relocatable (Prefix)'),
                  (rpm.RPMTAG_POLICIES, 'it carries SELinux policies (%sepolicy)'))
# Scriptlets of rpm versions after 4.18 (when this rpm knows them).
LATER_SCRIPTLET_TAGS = tuple((getattr(rpm, 'RPMTAG_' + name), section) for name, section in (
    ('PREUNTRANS', '%preuntrans'), ('POSTUNTRANS', '%postuntrans'))
    if hasattr(rpm, 'RPMTAG_' + name))
# Preamble tags copied as they are, when the header has them.
PREAMBLE_TAGS = (('URL', rpm.RPMTAG_URL), ('BugURL', rpm.RPMTAG_BUGURL),
                 ('Vendor', rpm.RPMTAG_VENDOR), ('Packager', rpm.RPMTAG_PACKAGER),
                 ('Group', rpm.RPMTAG_GROUP), ('Distribution', rpm.RPMTAG_DISTRIBUTION),
                 ('ModularityLabel', rpm.RPMTAG_MODULARITYLABEL))
# File flags and their directives in %files (%config and its options apart).
FILE_FLAG_DIRECTIVES = ((rpm.RPMFILE_GHOST, '%ghost'), (rpm.RPMFILE_DOC, '%doc'),
                        (rpm.RPMFILE_LICENSE, '%license'), (rpm.RPMFILE_README, '%readme'),
                        (rpm.RPMFILE_ARTIFACT, '%artifact'))
FILE_FLAGS_KNOWN = (rpm.RPMFILE_CONFIG | rpm.RPMFILE_MISSINGOK | rpm.RPMFILE_NOREPLACE
                    | rpm.RPMFILE_GHOST | rpm.RPMFILE_DOC | rpm.RPMFILE_LICENSE
                    | rpm.RPMFILE_README | rpm.RPMFILE_ARTIFACT)
VERIFY_WORDS = ((rpm.RPMVERIFY_FILEDIGEST, 'md5'), (rpm.RPMVERIFY_FILESIZE, 'size'),
                (rpm.RPMVERIFY_LINKTO, 'link'), (rpm.RPMVERIFY_USER, 'user'),
                (rpm.RPMVERIFY_GROUP, 'group'), (rpm.RPMVERIFY_MTIME, 'mtime'),
                (rpm.RPMVERIFY_MODE, 'mode'), (rpm.RPMVERIFY_RDEV, 'rdev'),
                (rpm.RPMVERIFY_CAPS, 'caps'))
VERIFY_ALL = 0x1ff  # the bits of VERIFY_WORDS
# What rpmbuild leaves out of a %ghost's verification by itself.
VERIFY_GHOST = VERIFY_ALL & ~(rpm.RPMVERIFY_FILEDIGEST | rpm.RPMVERIFY_FILESIZE
                              | rpm.RPMVERIFY_LINKTO | rpm.RPMVERIFY_MTIME)
# rpm's digest algorithms (RPMTAG_FILEDIGESTALGO; none: MD5) by hashlib's names.
DIGEST_ALGORITHMS = {1: 'md5', 2: 'sha1', 8: 'sha256', 9: 'sha384', 10: 'sha512', 11: 'sha224'}
# A line that rpmbuild takes for the start of a section of the spec (rpm's isPart: the line
# as expanded, case ignored), which a description must not have.
SPEC_SECTION = re.compile(
    r'%(package|prep|generate_buildrequires|conf|build|install|check|clean|pretrans|pre|'
    r'posttrans|post|preuntrans|preun|postuntrans|postun|verifyscript|files|changelog|'
    r'description|triggerprein|triggerin|triggerun|triggerpostun|trigger|filetriggerin|'
    r'filetriggerun|filetriggerpostun|filetrigger|transfiletriggerin|transfiletriggerun|'
    r'transfiletriggerpostun|transfiletrigger|sepolicy|patchlist|sourcelist)(\s|$)', re.I)
COPY_CHUNK = 1 << 20
# Each rebuild under way has a copy of its package's files in TMPDIR (often a tmpfs, in
# memory), and one more is staged while they run: a machine of many CPUs builds no more at once.
MAX_REBUILD_WORKERS = 8


def private_file(name, flags):
    """open()'s opener for the staged copies: new files of mode 0600, never through a link."""
    return os.open(name, flags | os.O_NOFOLLOW, 0o600)


def spec_text(value):
    """A header's string as a spec says it: rpmbuild expands macros in every line it reads
    (a description, a %files line, a scriptlet's -f file), and %% is a %."""
    return value.replace('%', '%%')


def spec_path_argument(path):
    """A path as an argument of a spec's section line (%post -f PATH): rpmbuild expands the
    line's macros, splits it into words as popt does (quotes, backslashes), then expands the
    word's macros again when it opens the file. So every character but the plain ones is
    escaped with a backslash (which macro expansion leaves as it is), and a % is %%%%."""
    return ''.join('%%%%' if c == '%' else c if c.isalnum() or c in '/._-+' else '\\' + c
                   for c in path)


def header_strings(header, tag):
    value = header[tag]
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def file_languages(header, count):
    """The %lang of each file: RPMTAG_FILELANGS (rpm.files() gives None for every file of a
    header from rpm's database)."""
    languages = header_strings(header, rpm.RPMTAG_FILELANGS)
    return languages if len(languages) == count else [''] * count


def header_dependencies(header, name_tag, flags_tag, version_tag):
    """(name, flags, version) of each entry of a dependency tag."""
    return list(zip(header_strings(header, name_tag), header_strings(header, flags_tag),
                    header_strings(header, version_tag)))


class RebuildPlan:
    """How one installed package is built anew, as rpmrebuild does: a spec written from its
    header in rpm's database, and its files as rpm installed them, copied from the root.

    What a spec cannot say as the header has it (triggers, a relocatable package, device files,
    flags of unknown meaning, a file that is not what rpm installed) refuses the rebuild
    (RebuildRefused): a package that would behave otherwise is never made. A %config file is
    taken as it is now (edited or not); its edits are the administrator's, and the package put
    back carries them. The built package is then compared with the installed header (check).
    """

    def __init__(self, header):
        self.header = header
        self.name = header[rpm.RPMTAG_NAME]
        self.arch = header[rpm.RPMTAG_ARCH]
        self.files = list(rpm.files(header))
        self.edited = set()  # %config files whose content (or link) is not rpm's any more
        self._auto_requires = self._auto_provides = False
        for tag in TRIGGER_TAGS:
            if header[tag]:
                raise RebuildRefused('it has triggers, which installtop does not rebuild')
        for tag, what in UNREBUILT_TAGS:
            if header[tag]:
                raise RebuildRefused('%s, which installtop does not rebuild' % what)
        for tag, section in LATER_SCRIPTLET_TAGS:
            if header[tag] is not None:
                raise RebuildRefused('it has a %s scriptlet, which installtop does not rebuild'
                                     % section)
        algorithm = header[rpm.RPMTAG_FILEDIGESTALGO] or 1
        self.digest_algorithm = algorithm
        self._hash_name = DIGEST_ALGORITHMS.get(algorithm)
        if self._hash_name is None and self.files:
            raise RebuildRefused("its files' digests are of an algorithm installtop does not "
                                 "know (%d)" % algorithm)
        self._dependencies = self._dependency_lines()
        self.scriptlets = self._scriptlets()
        self._file_lines = [self._file_line(fi, language) for fi, language in
                            zip(self.files, file_languages(header, len(self.files)))]
        description = header[rpm.RPMTAG_DESCRIPTION] or ''
        for line in description.split('\n'):
            if SPEC_SECTION.match(line):
                raise RebuildRefused('its description has a line that rpmbuild would take for '
                                     'a section of the spec (%s)' % line.strip())

    # -- the spec

    def _self_evr(self):
        epoch = self.header[rpm.RPMTAG_EPOCH]
        return '%s%s-%s' % ('%d:' % epoch if epoch is not None else '',
                            self.header[rpm.RPMTAG_VERSION], self.header[rpm.RPMTAG_RELEASE])

    def _dependency_lines(self):
        lines = []
        evr = self._self_evr()
        for word, name_tag, flags_tag, version_tag in DEPENDENCY_TAGS:
            for name, flags, version in header_dependencies(self.header, name_tag, flags_tag,
                                                            version_tag):
                if name.startswith('rpmlib(') and flags & rpm.RPMSENSE_RPMLIB:
                    continue  # rpmbuild says what its own package needs of rpm
                if flags & rpm.RPMSENSE_CONFIG and name == 'config(%s)' % self.name:
                    # Only rpmbuild's generator can give it this flag: AutoReq/AutoProv do, with
                    # the generators kept off every file (see Keeper._rpmbuild_command).
                    if word == 'Requires':
                        self._auto_requires = True
                        continue
                    if word == 'Provides':
                        self._auto_provides = True
                        continue
                sense = flags & RPMSENSE_SENSE
                if (word == 'Provides' and sense == rpm.RPMSENSE_EQUAL and version == evr
                        and (name == self.name or (self.arch != 'noarch'
                                                   and name.startswith(self.name + '(')
                                                   and name.endswith(')')))):
                    continue  # NAME = EVR and NAME(ISA) = EVR: rpmbuild provides them itself
                rest = flags & ~RPMSENSE_SENSE & ~RPMSENSE_IGNORED
                qualifiers = []
                if word == 'Requires':
                    for bit, qualifier in REQUIRE_QUALIFIERS:
                        if rest & bit:
                            qualifiers.append(qualifier)
                            rest &= ~bit
                text = '%s %s %s' % (name, SENSE_OPERATORS.get(sense), version) if sense else name
                if rest or (sense and (sense not in SENSE_OPERATORS or not version)) \
                        or '\n' in text:
                    raise RebuildRefused('its dependency %s %s has flags (%#x) that a spec '
                                         'cannot say' % (word, text, flags))
                lines.append('%s%s: %s' % (word, '(%s)' % ','.join(qualifiers)
                                           if qualifiers else '', spec_text(text)))
        return lines

    def _scriptlets(self):
        """(section line, body, file) of each scriptlet (body and file None when it has none):
        the body goes into a file that the section reads (-f, added by spec): rpmbuild takes a
        file's lines as they are (macros expanded), where a line of the spec that looks like a
        section would end the scriptlet."""
        scriptlets = []
        for section, body_tag, program_tag, flags_tag in SCRIPTLET_TAGS:
            body = self.header[body_tag]
            program = header_strings(self.header, program_tag)
            if not body and not program:
                continue
            words = [section]
            flags = self.header[flags_tag] or 0
            for bit, option in SCRIPTLET_FLAG_OPTIONS:
                if flags & bit:
                    words.append(option)
                    flags &= ~bit
            if flags:
                raise RebuildRefused('its %s scriptlet has flags (%#x) that a spec cannot say'
                                     % (section, self.header[flags_tag]))
            if program:
                if any(not arg or re.search(r'[\s"\'\\%]', arg) for arg in program):
                    raise RebuildRefused('the interpreter of its %s scriptlet (%s) cannot be '
                                         'said in a spec' % (section, ' '.join(program)))
                words += ['-p', program[0] if len(program) == 1 else '"%s"' % ' '.join(program)]
            name = section[1:] + '.scriptlet' if body else None
            scriptlets.append((' '.join(words), body or None, name))
        return scriptlets

    def _file_line(self, fi, language):
        path = fi.name
        if not path.startswith('/') or re.search(r'["\n\r]', path):
            raise RebuildRefused('%r is a file name that a spec cannot say' % path)
        kind = stat.S_IFMT(fi.mode)
        if kind not in (stat.S_IFREG, stat.S_IFDIR, stat.S_IFLNK):
            raise RebuildRefused('%s is a device, pipe or socket, which installtop does not '
                                 'rebuild' % path)
        flags = fi.fflags
        if flags & ~FILE_FLAGS_KNOWN or (flags & (rpm.RPMFILE_MISSINGOK | rpm.RPMFILE_NOREPLACE)
                                          and not flags & rpm.RPMFILE_CONFIG):
            raise RebuildRefused('%s has file flags (%#x) that installtop does not rebuild'
                                 % (path, flags))
        for owner in (fi.user, fi.group):
            if not owner or re.search(r'[\s,()%"]', owner):
                raise RebuildRefused('%s has an owner (%s) that a spec cannot say' % (path, owner))
        mode = '-' if kind == stat.S_IFLNK else '%04o' % stat.S_IMODE(fi.mode)
        words = ['%%attr(%s,%s,%s)' % (mode, fi.user, fi.group)]
        if flags & rpm.RPMFILE_CONFIG:
            options = [word for bit, word in ((rpm.RPMFILE_MISSINGOK, 'missingok'),
                                              (rpm.RPMFILE_NOREPLACE, 'noreplace'))
                       if flags & bit]
            words.append('%config' + ('(%s)' % ','.join(options) if options else ''))
        words += [directive for bit, directive in FILE_FLAG_DIRECTIVES if flags & bit]
        if kind == stat.S_IFDIR:
            words.append('%dir')
        wanted = fi.vflags & VERIFY_ALL
        if wanted != (VERIFY_GHOST if flags & rpm.RPMFILE_GHOST else VERIFY_ALL):
            if flags & rpm.RPMFILE_GHOST and wanted & ~VERIFY_GHOST:
                raise RebuildRefused('%s (a %%ghost) has verify flags that rpmbuild does not '
                                     'give a %%ghost' % path)
            words.append('%%verify(not %s)' % ' '.join(word for bit, word in VERIFY_WORDS
                                                       if not wanted & bit))
        if language:
            if not re.fullmatch(r'[A-Za-z0-9_.@|-]+', language):
                raise RebuildRefused('%s has a language (%s) that a spec cannot say'
                                     % (path, language))
            words.append('%%lang(%s)' % language.replace('|', ','))
        if fi.caps:
            if re.search(r'[()%\n"]', fi.caps):
                raise RebuildRefused('%s has capabilities (%s) that a spec cannot say'
                                     % (path, fi.caps))
            words.append('%%caps(%s)' % fi.caps)
        # Quoted: a name is then taken as it is, never as a glob.
        words.append('"%s"' % spec_text(path))
        return ' '.join(words)

    def spec(self, scriptlets):
        """The spec (its build root: the staged files, see Keeper._rpmbuild_command);
        scriptlets: the folder of the scriptlets' bodies (their files by the names of
        self.scriptlets)."""
        header = self.header
        lines = []
        for word, tag in (('Name', rpm.RPMTAG_NAME), ('Version', rpm.RPMTAG_VERSION),
                          ('Release', rpm.RPMTAG_RELEASE)):
            lines.append('%s: %s' % (word, spec_text(header[tag])))
        if header[rpm.RPMTAG_EPOCH] is not None:
            lines.append('Epoch: %d' % header[rpm.RPMTAG_EPOCH])
        for word, tag in (('Summary', rpm.RPMTAG_SUMMARY), ('License', rpm.RPMTAG_LICENSE)) \
                + PREAMBLE_TAGS:
            value = header[tag]
            if value and '\n' not in value:
                lines.append('%s: %s' % (word, spec_text(value)))
        if self.arch == 'noarch':
            lines.append('BuildArch: noarch')  # any other arch: rpmbuild --target ARCH
        lines.append('AutoReq: %s' % ('yes' if self._auto_requires else 'no'))
        lines.append('AutoProv: %s' % ('yes' if self._auto_provides else 'no'))
        lines += self._dependencies
        lines += ['', '%description', spec_text(header[rpm.RPMTAG_DESCRIPTION] or ''), '']
        # No %install: the staged files are the build root as they are (rpmbuild --buildroot),
        # and a spec without %install runs no shell at all (rpmbuild's %install would start by
        # emptying the build root, at the cost of a shell and four commands a package).
        lines += ['%files'] + self._file_lines + ['']
        for section, _, name in self.scriptlets:
            # By its absolute path: a relative one is taken in the build's folder, which is not
            # %{_builddir} in every rpm (4.20 has one of its own, made afresh for the build).
            lines += [section + (' -f ' + spec_path_argument(os.path.join(scriptlets, name))
                                 if name else ''), '']
        return '\n'.join(lines) + '\n'

    # -- the files

    def stage(self, root, stage):
        """Copies the package's files from the root into stage, checked against rpm's
        database, with the header's times (rpmbuild takes a file's mtime from it; owners and
        modes come from %attr, so the copies stay private: 0600, folders 0700)."""
        os.mkdir(stage, 0o700)
        linked = {}  # a hard-link set (the header's inode) -> its first staged copy
        directories = []
        for fi in self.files:
            STOP.checkpoint()
            path = fi.name
            relative = path.lstrip('/')
            target = os.path.join(stage, relative) if relative else stage
            source = os.path.join(root, relative) if relative else root
            if target != stage:
                os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
            kind = stat.S_IFMT(fi.mode)
            flags = fi.fflags
            config = flags & rpm.RPMFILE_CONFIG
            if kind == stat.S_IFDIR:
                os.makedirs(target, mode=0o700, exist_ok=True)
                directories.append((target, fi.mtime))
                continue
            if flags & rpm.RPMFILE_GHOST:
                # rpm packages no content of a %ghost, only its entry (and its size).
                if kind == stat.S_IFLNK:
                    os.symlink(fi.linkto, target)
                else:
                    with open(target, 'xb', opener=private_file) as ghost:
                        ghost.truncate(fi.size)
                os.utime(target, (fi.mtime, fi.mtime), follow_symlinks=False)
                continue
            if fi.state in (rpm.RPMFILE_STATE_NOTINSTALLED, rpm.RPMFILE_STATE_NETSHARED):
                raise RebuildRefused('%s was not installed (rpm left it out: documentation, a '
                                     'language or a shared path not installed), so its content '
                                     'is not there to rebuild' % path)
            try:
                now = os.lstat(source)
            except FileNotFoundError:
                raise RebuildRefused('%s%s is missing (deleted since rpm installed it)'
                                     % (path, ' (a %config file)' if config else ''))
            except OSError as e:
                raise RebuildRefused('cannot read %s: %s' % (source, e.strerror or e))
            mtime = fi.mtime
            if kind == stat.S_IFLNK:
                link = os.readlink(source) if stat.S_ISLNK(now.st_mode) else None
                if link != fi.linkto:
                    if not config or link is None:
                        raise RebuildRefused('%s differs from what rpm installed' % path)
                    self.edited.add(path)
                    mtime = now.st_mtime
                os.symlink(link, target)
                os.utime(target, (mtime, mtime), follow_symlinks=False)
                continue
            if not stat.S_ISREG(now.st_mode):
                raise RebuildRefused('%s differs from what rpm installed' % path)
            first = linked.get(fi.inode) if fi.nlink > 1 else None
            digest = self._copy(source, None if first else target)
            if digest != fi.digest:
                if not config:
                    raise RebuildRefused('%s differs from what rpm installed' % path)
                self.edited.add(path)
                mtime = now.st_mtime
                if first:  # not the content of its hard-link set any more: a copy of its own
                    self._copy(source, target)
                    first = None
            if first:
                os.link(first, target)
            elif fi.nlink > 1 and path not in self.edited:
                linked[fi.inode] = target
            os.utime(target, (mtime, mtime))
        for target, mtime in sorted(directories, key=lambda entry: -entry[0].count('/')):
            os.utime(target, (mtime, mtime))

    def _copy(self, source, target):
        """The hex digest of source (rpm's algorithm for the package's files), copied to target
        when not None."""
        try:
            digest = hashlib.new(self._hash_name)
        except ValueError as e:  # e.g. MD5 on a FIPS system
            raise RebuildRefused('cannot compute %s digests: %s' % (self._hash_name, e))
        try:
            with open(source, 'rb', buffering=0, opener=private_file) as reader:
                writer = open(target, 'xb', opener=private_file) if target is not None else None
                try:
                    while True:
                        chunk = reader.read(COPY_CHUNK)
                        if not chunk:
                            break
                        digest.update(chunk)
                        if writer is not None:
                            writer.write(chunk)
                        STOP.checkpoint()
                finally:
                    if writer is not None:
                        writer.close()
        except OSError as e:
            raise RebuildRefused('cannot copy %s: %s' % (source, e.strerror or e))
        return digest.hexdigest()

    # -- the check of what rpmbuild made

    @staticmethod
    def _file_facts(header):
        """path -> the facts of a file that rpm acts on, and the hard-link set it is in."""
        files = list(rpm.files(header))
        languages = file_languages(header, len(files))
        sets = {}
        for fi in files:
            if stat.S_ISREG(fi.mode) and fi.nlink > 1:
                sets.setdefault(fi.inode, []).append(fi.name)
        return {fi.name: dict(mode='%o' % fi.mode, user=fi.user, group=fi.group,
                              flags='%#x' % fi.fflags,
                              verify='%#x' % (fi.vflags & VERIFY_ALL), link=fi.linkto,
                              size=fi.size, digest=fi.digest, mtime=fi.mtime,
                              language=language or '', capabilities=fi.caps or '',
                              color=fi.color, rdev=fi.rdev,
                              links=', '.join(sorted(sets.get(fi.inode, [])))
                              if stat.S_ISREG(fi.mode) and fi.nlink > 1 else '')
                for fi, language in zip(files, languages)}

    @staticmethod
    def _dependency_set(header, name_tag, flags_tag, version_tag):
        return {(name, flags & ~RPMSENSE_IGNORED, version)
                for name, flags, version in header_dependencies(header, name_tag, flags_tag,
                                                                version_tag)
                if not flags & rpm.RPMSENSE_RPMLIB}

    def difference(self, built):
        """None when the built header says what the installed one says (but for what makes a
        build: its time, host, digests, signatures), else the first difference, in words."""
        installed = self.header
        identity = [rpm.RPMTAG_NAME, rpm.RPMTAG_EPOCH, rpm.RPMTAG_VERSION, rpm.RPMTAG_RELEASE,
                    rpm.RPMTAG_ARCH]
        if [built[tag] for tag in identity] != [installed[tag] for tag in identity]:
            return 'rpmbuild made %s, not %s' % (built[rpm.RPMTAG_NEVRA],
                                                 installed[rpm.RPMTAG_NEVRA])
        mine, made = self._file_facts(installed), self._file_facts(built)
        for path in sorted(mine.keys() | made.keys()):
            if path not in made:
                return 'the rebuilt package lacks %s' % path
            if path not in mine:
                return 'the rebuilt package has %s, which the installed one has not' % path
            for fact, value in mine[path].items():
                if path in self.edited and fact in ('size', 'digest', 'mtime'):
                    continue  # a %config file taken as it is now
                if made[path][fact] != value:
                    return 'in the rebuilt package, %s has %s %s, not %s' % (
                        path, fact, made[path][fact] if made[path][fact] != '' else 'none',
                        value if value != '' else 'none')
        for section, body_tag, program_tag, flags_tag in SCRIPTLET_TAGS:
            for tag, what in ((body_tag, 'body'), (program_tag, 'interpreter'),
                              (flags_tag, 'flags')):
                if (built[tag] or None) != (installed[tag] or None):
                    return "the rebuilt package's %s scriptlet has another %s" % (section, what)
        for word, name_tag, flags_tag, version_tag in DEPENDENCY_TAGS:
            mine = self._dependency_set(installed, name_tag, flags_tag, version_tag)
            made = self._dependency_set(built, name_tag, flags_tag, version_tag)
            for entries, what in ((mine - made, 'lacks'), (made - mine, 'has')):
                if entries:
                    name, flags, version = sorted(entries)[0]
                    return 'the rebuilt package %s %s: %s%s (flags %#x)%s' % (
                        what, word, name, ' ' + version if version else '', flags,
                        '' if what == 'lacks' else ', which the installed one has not')
        for tag in TRIGGER_TAGS:
            if built[tag]:
                return 'the rebuilt package has triggers'
        for tag, what in ((rpm.RPMTAG_SUMMARY, 'summary'), (rpm.RPMTAG_DESCRIPTION, 'description'),
                          (rpm.RPMTAG_LICENSE, 'license')):
            if (built[tag] or None) != (installed[tag] or None):
                return "the rebuilt package's %s differs" % what
        return None


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

    def __init__(self, folder, unread_repos=()):
        self._folder = folder
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
        STOP.on_forced_exit(self._abandon)

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
                STOP.checkpoint()
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

    @staticmethod
    def _attempt(keeping, step, *args):
        """Runs step(*args), a step of keeping keeping's package, and returns what it returns;
        None when it fails (KeepFailed, or any error but a stop), with the reason in keeping."""
        try:
            return step(*args)
        except Stopped:
            raise
        except KeepFailed as e:
            keeping.reason = str(e)
        except Exception as e:
            STOP.checkpoint()  # dnf failing because of a stop: it is the stop
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
                EVENTS.emit('not-kept', **keeping.fields, reason=keeping.reason)
            else:
                EVENTS.emit('kept', **keeping.fields, **kept)

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
            STOP.checkpoint()
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
            STOP.checkpoint()
            try:
                # No download events: installtop counts those by NAME.ARCH, which the new
                # version of the same package shares. librepo's interrupt flag cuts this
                # download short on a stop as any other (StopControl).
                base.download_packages([candidate], progress=dnf.callback.NullDownloadProgress())
            except dnf.exceptions.Error as e:
                STOP.checkpoint()  # a download cut short by a stop is the stop, not a reason
                reasons.append('cannot download it: %s' % str(e).strip())
                continue
            STOP.checkpoint()
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
        plan = RebuildPlan(header)
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
                STOP.checkpoint()
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
        STOP.checkpoint()
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
                STOP.checkpoint()
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
                STOP.checkpoint()
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


# ---- dnf ----

class HelperBase(dnf.Base):
    """dnf.Base that reports the moment rpm's transaction starts.

    dnf's do_transaction takes the rpmdb lock, checks, orders and test-runs the transaction,
    then calls _run_transaction, which records history and runs rpm. The test transaction
    takes no lock and leaves signals alone: it is still interruptible, so rpm-start is told
    here, after it, at the last step before rpm runs. The keeper (--keep-into) works here
    too, just before: only a transaction that passed rpm's test gets its versions kept.
    """

    def __init__(self, conf, reporter):
        super().__init__(conf)
        self._reporter = reporter
        self.keeper = None

    def _run_transaction(self, cb):
        reporter = self._reporter
        if self.keeper is not None:
            self.keeper.keep(self)
        reporter.elements = list(self._ts)
        STOP.enter('rpm', event='rpm-start', count=len(reporter.elements))
        cb.callback = reporter.wrap(cb.callback)
        reporter.start_capture()
        try:
            return super()._run_transaction(cb)
        finally:
            reporter.stop_capture()


def make_conf(request):
    """dnf's configuration, made before dnf.Base: a Base made without one detects releasever
    on / (dnf.Base._setup_default_conf), opening the host's rpm database even with an
    installroot (with Debian's rpm and the real HOME, creating ~/.rpmdb).

    Returns the configuration and the repository options of --setopt, which apply once the
    repositories are read.
    """
    conf = dnf.conf.Conf()
    conf.exit_on_lock = True  # a lock held elsewhere is an error here, not a wait
    root = request.installroot
    # Before any path is substituted: an unknown releasever is None, which libdnf rejects.
    conf.releasever = request.releasever or dnf.rpm.detect_releasever(root or '/')
    if root is None:
        conf.read(priority=dnf.conf.PRIO_MAINCONFIG)
        reposroot = '/'
    else:
        conf.installroot = root
        config = os.path.join(root, 'etc/dnf/dnf.conf')
        if os.path.isfile(config):
            conf.read(config, priority=dnf.conf.PRIO_MAINCONFIG)
        # dnf's API takes these paths as given; its command line re-roots them like this.
        for option in ('cachedir', 'logdir', 'persistdir'):
            conf.prepend_installroot(option)
        conf.reposdir = [os.path.join(root, path.lstrip('/')) for path in conf.reposdir]
        reposroot = root
    conf.substitutions.update_from_etc(reposroot, varsdir=conf.varsdir)
    repo_setopts = []
    for key, value in request.setopts:
        repo_glob, dot, option = key.rpartition('.')
        if dot:
            repo_setopts.append((repo_glob, option, value))
        else:
            conf.set_or_append_opt_value(key, value, dnf.conf.PRIO_COMMANDLINE)
    for path in (conf.logdir, conf.persistdir, conf.cachedir):
        os.makedirs(path, exist_ok=True)
    return conf, repo_setopts


def read_repos(base, repo_setopts):
    base.setup_loggers()  # dnf.log, dnf.rpm.log, dnf.librepo.log in logdir, as dnf's own
    base.read_all_repos()
    for repo_glob, option, value in repo_setopts:
        for repo in base.repos.get_matching(repo_glob):
            repo.set_or_append_opt_value(option, value, dnf.conf.PRIO_COMMANDLINE)


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


def report_final(base, items):
    """final events from a fresh open of rpm's database (same root, same %_dbpath)."""
    ts = rpm.TransactionSet(base.conf.installroot)
    seen = set()
    for item in items:
        if (item.name, item.arch) in seen:
            continue
        seen.add((item.name, item.arch))
        installed = [evr_text(h[rpm.RPMTAG_EPOCH], h[rpm.RPMTAG_VERSION], h[rpm.RPMTAG_RELEASE])
                     for h in ts.dbMatch('name', item.name) if h[rpm.RPMTAG_ARCH] == item.arch]
        EVENTS.emit('final', name=item.name, arch=item.arch, installed=installed)
    ts.closeDB()


def run_transaction(base, reporter, items):
    """Runs rpm's transaction; returns the exit status. Errors before rpm-start raise."""
    errors = []
    try:
        base.do_transaction(display=[reporter])
    except dnf.exceptions.LockError:
        raise
    except dnf.exceptions.Error as e:
        if STOP.stage != 'rpm':
            # rpm's check or test transaction (or loading the packages into it) refused it.
            raise HelperError('check', str(e).strip())
        errors.append(str(e))
    errors = reporter.errors + errors
    for tsi in base.transaction:
        if tsi.state == _ACTIONS.TransactionItemState_ERROR:
            errors.append('rpm failed on %s' % tsi)
    EVENTS.emit('rpm-end', ok=not errors, errors=errors)
    report_final(base, items)
    return EXIT_OK if not errors else EXIT_FAILED


def plan_and_run(base, reporter, repo_setopts, request):
    read_repos(base, repo_setopts)
    STOP.on_forced_exit(lambda paths=lock_paths(base.conf): remove_own_locks(paths))
    check_locks(base.conf)
    STOP.checkpoint()
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
    STOP.checkpoint()
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
    STOP.checkpoint()

    items = transaction_items(base.transaction or [], base.goal)
    new_packages = [item.new_package for item in items if item.new_package is not None]
    already = 0
    for pkg in new_packages:
        if needs_no_download(pkg):
            already += pkg.downloadsize
        STOP.checkpoint()
    protected = protected_packages(base)
    for item in items:
        EVENTS.emit('item', **item.event(protected))
    EVENTS.emit('planned', count=len(items),
                download=sum(pkg.downloadsize for pkg in new_packages), already=already)
    if request.expect is not None:
        check_expected(items, request.expect)
    if request.mode == 'plan' or not items:
        STOP.checkpoint()  # a stop that came while the items were told still ends with stopped
        return EXIT_OK

    if request.keep_into is not None:
        base.keeper = Keeper(request.keep_into, unread_repos)
    STOP.enter('download')
    base.download_packages(new_packages, progress=DownloadReporter(EVENTS))
    STOP.checkpoint()
    check_signatures(base, new_packages)
    check_locks(base.conf)
    STOP.checkpoint()
    return run_transaction(base, reporter, items)


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


def main():
    # Python's own words (dnf's logging, the helper's) go to a duplicate of descriptor 2, so
    # that what rpm's scriptlets write on descriptor 2 while rpm runs (DescriptorCapture) can
    # be told apart and given to their package; both reach installtop's standard error pipe.
    sys.stderr = os.fdopen(os.dup(2), 'w', buffering=1, encoding=sys.stderr.encoding,
                           errors=sys.stderr.errors)
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter('dnf: %(message)s'))
    logging.getLogger('dnf').addHandler(handler)
    try:
        STOP.librepo_interrupt = ctypes.c_int.in_dll(ctypes.CDLL('librepo.so.0'), 'lr_interrupt')
    except (OSError, ValueError):
        print('installtop-dnf: librepo interrupt flag not found; a stop waits for downloads',
              file=sys.stderr)
    reporter = RpmReporter(EVENTS)
    logging.getLogger('dnf').addHandler(RpmErrorLog(reporter))
    base = None
    try:
        conf, repo_setopts = make_conf(REQUEST)
        base = HelperBase(conf, reporter)
        return plan_and_run(base, reporter, repo_setopts, REQUEST)
    except Stopped:
        STOP.tell_stopped()
        return EXIT_STOPPED
    except Exception as e:
        if STOP.stage == 'rpm':
            # The helper failed after rpm ran: the system may have changed, so not exit 2.
            EVENTS.error('other', '%s: %s' % (type(e).__name__, e))
            return EXIT_FAILED
        try:
            STOP.checkpoint()
        except Stopped:
            # The stop made dnf fail (an interrupted download): it is a stop, not an error.
            STOP.tell_stopped()
            return EXIT_STOPPED
        kind, message = error_of(e)
        EVENTS.error(kind, message)
        return EXIT_ERROR
    finally:
        if base is not None:
            base.close()


if __name__ == '__main__':
    # installtop writes this script into a folder of its own (TMPDIR too) and removes it when
    # the helper ends; when installtop was killed meanwhile (the helper is then another
    # process's child), nobody else will.
    PARENT = os.getppid()
    try:
        status = main()
    finally:
        if PRIVATE_HOME is not None:
            shutil.rmtree(PRIVATE_HOME, ignore_errors=True)
        own = os.path.dirname(os.path.abspath(__file__))
        if os.getppid() != PARENT and os.path.basename(own).startswith('installtop-dnf-'):
            shutil.rmtree(own, ignore_errors=True)
    sys.exit(status)
