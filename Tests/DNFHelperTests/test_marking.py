"""marking: the request in dnf's goal (every unknown spec said at once, a removal of what is not
installed skipped), and undo's files and removals; transaction.error_of: the error event's kind
for what dnf raises."""

from types import SimpleNamespace

import dnf.exceptions
import hawkey
import pytest

from installtop_dnf.marking import mark_request, mark_undo
from installtop_dnf.protocol import HelperError
from installtop_dnf.request import Request
from installtop_dnf.transaction import error_of


class Base:
    """dnf.Base's marking calls, recorded; a spec in `unknown` raises as dnf does."""

    def __init__(self, unknown=()):
        self.unknown = set(unknown)
        self.calls = []
        self.conf = SimpleNamespace(strict=True)

    def _mark(self, call, spec, **options):
        if spec in self.unknown:
            # dnf's messages: some name the spec, some do not.
            raise dnf.exceptions.MarkingError('No match for argument: ' + spec
                                              if spec.startswith('n') else 'No package')
        self.calls.append((call, spec, options))

    def install(self, spec, strict):
        self._mark('install', spec, strict=strict)

    def upgrade(self, spec):
        self._mark('upgrade', spec)

    def remove(self, spec, forms=None):
        self._mark('remove', spec, **({'forms': forms} if forms else {}))

    def upgrade_all(self):
        self.calls.append(('upgrade_all', None, {}))


def test_install_and_upgrade_mark_each_spec():
    base = Base()
    mark_request(base, Request(['plan', 'install', 'a', 'b']))
    assert base.calls == [('install', 'a', {'strict': True}), ('install', 'b', {'strict': True})]
    base = Base()
    mark_request(base, Request(['plan', 'upgrade', 'a']))
    assert base.calls == [('upgrade', 'a', {})]


def test_upgrade_without_packages_is_everything():
    base = Base()
    mark_request(base, Request(['plan', 'upgrade']))
    assert base.calls == [('upgrade_all', None, {})]


def test_every_unknown_spec_is_said_once_one_a_line():
    base = Base(unknown={'nothere', 'x'})
    with pytest.raises(HelperError) as raised:
        mark_request(base, Request(['plan', 'install', 'nothere', 'a', 'x']))
    assert raised.value.kind == 'unknown'
    assert raised.value.message == 'No match for argument: nothere\nNo package'
    assert [call[1] for call in base.calls] == ['a']


def test_removing_what_is_not_installed_is_no_error():
    base = Base(unknown={'nothere'})
    mark_request(base, Request(['plan', 'remove', 'nothere', 'a']))
    assert base.calls == [('remove', 'a', {})]


def test_undo_files_that_cannot_be_read_are_said_at_once(tmp_path):
    text = tmp_path / 'notes.txt'
    text.write_text('not an rpm')
    missing = str(tmp_path / 'gone-1-1.noarch.rpm')
    with pytest.raises(HelperError) as raised:
        mark_undo(Base(), Request(['run', 'undo', missing, str(text), '-a.noarch']))
    assert raised.value.kind == 'unknown'
    assert raised.value.message == 'No such rpm file: %s\nNot an rpm file: %s' % (missing, text)


def test_undo_removals_are_by_name_and_arch_and_say_the_solver_may_erase():
    class UndoBase(Base):
        sack = SimpleNamespace(query=lambda: SimpleNamespace(installed=lambda: None))

    base = UndoBase(unknown={'nothere.noarch'})
    assert mark_undo(base, Request(['run', 'undo', '-a.x86_64', '-nothere.noarch'])) is True
    assert base.calls == [('remove', 'a.x86_64', {'forms': [hawkey.FORM_NA]})]


@pytest.mark.parametrize('exception, kind', [
    (dnf.exceptions.LockError('held'), 'locked'), (dnf.exceptions.RepoError('held'), 'repo'),
    (dnf.exceptions.DepsolveError('held'), 'depsolve'),
    (dnf.exceptions.MarkingError('held'), 'unknown'),
    (dnf.exceptions.DownloadError('held'), 'download')])
def test_dnfs_errors_and_their_kinds(exception, kind):
    assert error_of(exception) == (kind, 'held')


def test_anything_else_is_other_with_its_type_and_a_helper_error_is_itself():
    assert error_of(OSError(' disk full \n')) == ('other', 'OSError: disk full')
    assert error_of(HelperError('signature', 'bad key')) == ('signature', 'bad key')
