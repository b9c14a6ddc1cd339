"""The command line: mode, request, options and the undo items' two forms. Imports nothing of
dnf or rpm: the entry script reads the request before they are imported."""

import os

from .protocol import HelperError


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
