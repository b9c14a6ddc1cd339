"""Stand-ins for the modules the helper imports from dnf's and rpm's Python bindings (dnf,
dnf.*, hawkey, libdnf.transaction, rpm), put in sys.modules before any helper module is
imported (conftest.py), so that the tests run the same on a machine with or without
python3-dnf, and never reach a real rpm database or dnf configuration.

The numbers are those of rpm 4.18, dnf 4.14 and libdnf 0.69 (Debian 12's python3-rpm and
python3-dnf): the helper compares and combines them, so a few tests depend on their bits.
"""

import sys
import types

RPM_CONSTANTS = {
    'RPMCALLBACK_ELEM_PROGRESS': 524288, 'RPMCALLBACK_INST_OPEN_FILE': 4,
    'RPMCALLBACK_SCRIPT_ERROR': 32768, 'RPMCALLBACK_SCRIPT_START': 65536,
    'RPMCALLBACK_TRANS_STOP': 64, 'RPMDBI_PACKAGES': 0,
    'RPMFILE_ARTIFACT': 4096, 'RPMFILE_CONFIG': 1, 'RPMFILE_DOC': 2, 'RPMFILE_GHOST': 64,
    'RPMFILE_LICENSE': 128, 'RPMFILE_MISSINGOK': 8, 'RPMFILE_NOREPLACE': 16,
    'RPMFILE_README': 256, 'RPMFILE_STATE_NETSHARED': 3, 'RPMFILE_STATE_NOTINSTALLED': 2,
    'RPMRC_OK': 0,
    'RPMSENSE_CONFIG': 268435456, 'RPMSENSE_EQUAL': 8, 'RPMSENSE_FIND_PROVIDES': 32768,
    'RPMSENSE_FIND_REQUIRES': 16384, 'RPMSENSE_GREATER': 4, 'RPMSENSE_INTERP': 256,
    'RPMSENSE_LESS': 2, 'RPMSENSE_POSTTRANS': 32, 'RPMSENSE_PRETRANS': 128,
    'RPMSENSE_RPMLIB': 16777216, 'RPMSENSE_SCRIPT_POST': 1024, 'RPMSENSE_SCRIPT_POSTUN': 4096,
    'RPMSENSE_SCRIPT_PRE': 512, 'RPMSENSE_SCRIPT_PREUN': 2048, 'RPMSENSE_SCRIPT_VERIFY': 8192,
    'RPMTAG_ARCH': 1022, 'RPMTAG_BUGURL': 5012, 'RPMTAG_CONFLICTFLAGS': 1053,
    'RPMTAG_CONFLICTNAME': 1054, 'RPMTAG_CONFLICTVERSION': 1055, 'RPMTAG_DESCRIPTION': 1005,
    'RPMTAG_DISTRIBUTION': 1010, 'RPMTAG_ENHANCEFLAGS': 5057, 'RPMTAG_ENHANCENAME': 5055,
    'RPMTAG_ENHANCEVERSION': 5056, 'RPMTAG_EPOCH': 1003, 'RPMTAG_FILEDIGESTALGO': 5011,
    'RPMTAG_FILELANGS': 1097, 'RPMTAG_FILETRIGGERNAME': 5069, 'RPMTAG_FILETRIGGERSCRIPTS': 5066,
    'RPMTAG_GROUP': 1016, 'RPMTAG_LICENSE': 1014, 'RPMTAG_MODULARITYLABEL': 5096,
    'RPMTAG_NAME': 1000, 'RPMTAG_NEVRA': 5016, 'RPMTAG_OBSOLETEFLAGS': 1114,
    'RPMTAG_OBSOLETENAME': 1090, 'RPMTAG_OBSOLETEVERSION': 1115, 'RPMTAG_ORDERFLAGS': 5037,
    'RPMTAG_ORDERNAME': 5035, 'RPMTAG_ORDERVERSION': 5036, 'RPMTAG_PACKAGER': 1015,
    'RPMTAG_POLICIES': 1150, 'RPMTAG_POSTIN': 1024, 'RPMTAG_POSTINFLAGS': 5021,
    'RPMTAG_POSTINPROG': 1086, 'RPMTAG_POSTTRANS': 1152, 'RPMTAG_POSTTRANSFLAGS': 5025,
    'RPMTAG_POSTTRANSPROG': 1154, 'RPMTAG_POSTUN': 1026, 'RPMTAG_POSTUNFLAGS': 5023,
    'RPMTAG_POSTUNPROG': 1088, 'RPMTAG_PREFIXES': 1098, 'RPMTAG_PREIN': 1023,
    'RPMTAG_PREINFLAGS': 5020, 'RPMTAG_PREINPROG': 1085, 'RPMTAG_PRETRANS': 1151,
    'RPMTAG_PRETRANSFLAGS': 5024, 'RPMTAG_PRETRANSPROG': 1153, 'RPMTAG_PREUN': 1025,
    'RPMTAG_PREUNFLAGS': 5022, 'RPMTAG_PREUNPROG': 1087, 'RPMTAG_PROVIDEFLAGS': 1112,
    'RPMTAG_PROVIDENAME': 1047, 'RPMTAG_PROVIDEVERSION': 1113, 'RPMTAG_RECOMMENDFLAGS': 5048,
    'RPMTAG_RECOMMENDNAME': 5046, 'RPMTAG_RECOMMENDVERSION': 5047, 'RPMTAG_RELEASE': 1002,
    'RPMTAG_REQUIREFLAGS': 1048, 'RPMTAG_REQUIRENAME': 1049, 'RPMTAG_REQUIREVERSION': 1050,
    'RPMTAG_SHA1HEADER': 269, 'RPMTAG_SHA256HEADER': 273, 'RPMTAG_SUGGESTFLAGS': 5051,
    'RPMTAG_SUGGESTNAME': 5049, 'RPMTAG_SUGGESTVERSION': 5050, 'RPMTAG_SUMMARY': 1004,
    'RPMTAG_SUPPLEMENTFLAGS': 5054, 'RPMTAG_SUPPLEMENTNAME': 5052,
    'RPMTAG_SUPPLEMENTVERSION': 5053, 'RPMTAG_TRANSFILETRIGGERNAME': 5079,
    'RPMTAG_TRANSFILETRIGGERSCRIPTS': 5076, 'RPMTAG_TRIGGERNAME': 1066,
    'RPMTAG_TRIGGERSCRIPTPROG': 1092, 'RPMTAG_TRIGGERSCRIPTS': 1065, 'RPMTAG_URL': 1020,
    'RPMTAG_VENDOR': 1011, 'RPMTAG_VERIFYSCRIPT': 1079, 'RPMTAG_VERIFYSCRIPTFLAGS': 5026,
    'RPMTAG_VERIFYSCRIPTPROG': 1091, 'RPMTAG_VERSION': 1001,
    'RPMVERIFY_CAPS': 256, 'RPMVERIFY_FILEDIGEST': 1, 'RPMVERIFY_FILESIZE': 2,
    'RPMVERIFY_GROUP': 16, 'RPMVERIFY_LINKTO': 4, 'RPMVERIFY_MODE': 64, 'RPMVERIFY_MTIME': 32,
    'RPMVERIFY_RDEV': 128, 'RPMVERIFY_USER': 8,
    'TR_ADDED': 1, 'TR_REMOVED': 2, '_RPMVSF_NOSIGNATURES': 789504,
}
# rpm.tagnames: the scriptlet tags a SCRIPT_START or SCRIPT_ERROR callback names.
RPM_TAG_NAMES = {1023: 'PREIN', 1024: 'POSTIN', 1025: 'PREUN', 1026: 'POSTUN',
                 1151: 'PRETRANS', 1152: 'POSTTRANS', 1079: 'VERIFYSCRIPT',
                 1065: 'TRIGGERSCRIPTS', 5066: 'FILETRIGGERSCRIPTS'}
DNF_CALLBACK_CONSTANTS = {
    'PKG_CLEANUP': 101, 'PKG_DOWNGRADE': 2, 'PKG_DOWNGRADED': 3, 'PKG_INSTALL': 1,
    'PKG_OBSOLETE': 4, 'PKG_OBSOLETED': 5, 'PKG_REINSTALL': 9, 'PKG_REINSTALLED': 10,
    'PKG_REMOVE': 8, 'PKG_SCRIPTLET': 103, 'PKG_UPGRADE': 6, 'PKG_UPGRADED': 7,
    'PKG_VERIFY': 102, 'STATUS_ALREADY_EXISTS': 2, 'STATUS_FAILED': 1, 'STATUS_MIRROR': 3,
    'STATUS_OK': None, 'TRANS_POST': 202, 'TRANS_PREPARATION': 201,
}
LIBDNF_TRANSACTION_CONSTANTS = {
    'TransactionItemAction_INSTALL': 1, 'TransactionItemAction_DOWNGRADE': 2,
    'TransactionItemAction_DOWNGRADED': 3, 'TransactionItemAction_OBSOLETE': 4,
    'TransactionItemAction_OBSOLETED': 5, 'TransactionItemAction_UPGRADE': 6,
    'TransactionItemAction_UPGRADED': 7, 'TransactionItemAction_REMOVE': 8,
    'TransactionItemAction_REINSTALL': 9, 'TransactionItemAction_REINSTALLED': 10,
    'TransactionItemAction_REASON_CHANGE': 11,
    'TransactionItemReason_DEPENDENCY': 1, 'TransactionItemReason_USER': 2,
    'TransactionItemState_DONE': 1, 'TransactionItemState_ERROR': 2,
}


class _LockFile:
    """What dnf.lock's builders return: the lock file's path as `target`."""

    def __init__(self, folder, name):
        self.target = '%s/%s' % (folder, name)


def _module(name, **attributes):
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def install():
    """Puts the stand-ins in sys.modules (replacing the real bindings, if any were imported)."""
    rpm = _module('rpm', tagnames=dict(RPM_TAG_NAMES), error=type('error', (Exception,), {}),
                  expandMacro=lambda macro: '/var/lib/rpm/.rpm.lock'
                  if macro == '%{?_rpmlock_path}' else '',
                  files=lambda header: list(header.get('files', [])),
                  **RPM_CONSTANTS)

    class Error(Exception):
        def __init__(self, value=None):
            super().__init__(value)
            self.value = value

    exceptions = _module('dnf.exceptions', Error=Error)
    for name in ('DepsolveError', 'DownloadError', 'LockError', 'MarkingError', 'RepoError'):
        setattr(exceptions, name, type(name, (Error,), {}))
    callback = _module('dnf.callback',
                       DownloadProgress=type('DownloadProgress', (), {}),
                       TransactionProgress=type('TransactionProgress', (), {}),
                       NullDownloadProgress=type('NullDownloadProgress', (), {}),
                       **DNF_CALLBACK_CONSTANTS)
    lock = _module('dnf.lock',
                   build_metadata_lock=lambda folder, exit_on_lock: _LockFile(folder, 'metadata_lock.pid'),
                   build_download_lock=lambda folder, exit_on_lock: _LockFile(folder, 'download_lock.pid'),
                   build_rpmdb_lock=lambda folder, exit_on_lock: _LockFile(folder, 'rpmdb_lock.pid'))
    conf = _module('dnf.conf', Conf=type('Conf', (), {}), PRIO_MAINCONFIG=20, PRIO_COMMANDLINE=80)
    dnf_rpm = _module('dnf.rpm', detect_releasever=lambda root: None)
    dnf = _module('dnf', Base=type('Base', (), {'__init__': lambda self, conf=None: None}),
                  callback=callback, conf=conf, exceptions=exceptions, lock=lock, rpm=dnf_rpm)
    dnf.__path__ = []  # a package, so that `import dnf.callback` finds the submodule here
    transaction = _module('libdnf.transaction', **LIBDNF_TRANSACTION_CONSTANTS)
    libdnf = _module('libdnf', transaction=transaction)
    libdnf.__path__ = []
    hawkey = _module('hawkey', FORM_NA=1, IGNORE_EXCLUDES=1)
    sys.modules.update({'rpm': rpm, 'dnf': dnf, 'dnf.callback': callback, 'dnf.conf': conf,
                        'dnf.exceptions': exceptions, 'dnf.lock': lock, 'dnf.rpm': dnf_rpm,
                        'libdnf': libdnf, 'libdnf.transaction': transaction, 'hawkey': hawkey})
