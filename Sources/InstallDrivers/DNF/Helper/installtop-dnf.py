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
# Its modules: the package installtop_dnf beside this script (its __init__ lists them, one job
# each); this script only starts the helper in the order that matters and ends it.
#
# Its folder: installtop writes the script and its package into a folder of its own named
# installtop-dnf-*, which is also the helper's TMPDIR, and removes it when the helper ends. A
# helper whose parent is gone when it ends (installtop killed) removes that folder itself.
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

import os
import shutil
import sys

# The package beside this script, whatever PYTHONPATH or PYTHONSAFEPATH say: installtop passes
# its own environment on, and another module of that name must never be the one imported.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from installtop_dnf.private_home import make_private_home  # noqa: E402
from installtop_dnf.protocol import EXIT_ERROR, EventWriter, HelperError  # noqa: E402
from installtop_dnf.request import Request  # noqa: E402
from installtop_dnf.stop import StopControl  # noqa: E402

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

from installtop_dnf.main import main  # noqa: E402  (imports dnf and rpm: after the private HOME)

if __name__ == '__main__':
    # installtop writes this script into a folder of its own (TMPDIR too) and removes it when
    # the helper ends; when installtop was killed meanwhile (the helper is then another
    # process's child), nobody else will.
    PARENT = os.getppid()
    try:
        status = main(EVENTS, STOP, REQUEST)
    finally:
        if PRIVATE_HOME is not None:
            shutil.rmtree(PRIVATE_HOME, ignore_errors=True)
        own = os.path.dirname(os.path.abspath(__file__))
        if os.getppid() != PARENT and os.path.basename(own).startswith('installtop-dnf-'):
            shutil.rmtree(own, ignore_errors=True)
    sys.exit(status)
