"""Building an installed package anew from rpm's database and the files in the root, as
rpmrebuild does (--keep-into's last source): the spec, the staged files, the check of what
rpmbuild made."""

import hashlib
import os
import re
import stat

import rpm


class RebuildRefused(Exception):
    """The installed package cannot be rebuilt; the message says why, as a clause ("it has
    triggers, ...")."""


class RpmbuildMissing(RebuildRefused):
    """rpmbuild is not installed."""


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

    def __init__(self, header, stop):
        self.header = header
        self._stop = stop  # its checkpoint ends staging and copying on a stop
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
            self._stop.checkpoint()
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
                        self._stop.checkpoint()
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
