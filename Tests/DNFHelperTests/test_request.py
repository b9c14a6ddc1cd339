"""request: the command line as installtop writes it (DNFHelper.arguments), and every usage
error as the error event's message."""

import os

import pytest

from installtop_dnf.protocol import HelperError
from installtop_dnf.request import Request, is_undo_file, undo_removal


def usage_error(argv):
    with pytest.raises(HelperError) as raised:
        Request(argv)
    assert raised.value.kind == 'other'
    return raised.value.message


def test_options_in_both_forms_and_the_words_around_them():
    request = Request(['run', '--installroot', 'images/a', '--releasever=9', '--setopt',
                       'lab*.gpgcheck=0', '--setopt=keepcache=1', '--expect', 'install:a.noarch::1-1',
                       '--expect=remove:b.x86_64:2:3-1:', '--keep-into', 'kept', 'upgrade', 'a', 'b'])
    assert (request.mode, request.action, request.specs) == ('run', 'upgrade', ['a', 'b'])
    assert request.installroot == os.path.abspath('images/a')
    assert request.keep_into == os.path.abspath('kept')
    assert request.releasever == '9'
    # Split at the first =: a value may hold one.
    assert request.setopts == [('lab*.gpgcheck', '0'), ('keepcache', '1')]
    # A token is taken whole, colons and all (an EVR may hold one).
    assert request.expect == {'install:a.noarch::1-1', 'remove:b.x86_64:2:3-1:'}


def test_defaults_none_and_upgrade_without_packages():
    request = Request(['plan', 'upgrade'])
    assert (request.installroot, request.releasever, request.expect, request.keep_into) == \
        (None, None, None, None)
    assert request.setopts == [] and request.specs == []


def test_usage_errors_say_what_is_wrong():
    assert usage_error(['plan', 'install']) == 'usage: install needs at least one package'
    assert usage_error(['plan', 'remove']) == 'usage: remove needs at least one package'
    assert usage_error(['plan', 'install', '--releasever']) == 'usage: --releasever needs a value'
    assert usage_error(['plan', '--setopt', 'gpgcheck', 'install', 'a']) == \
        'usage: --setopt needs KEY=VALUE: gpgcheck'
    assert usage_error(['plan', '--keep-into', '/k', 'remove', 'a']) == \
        'usage: --keep-into is for run mode only'
    for argv in (['install', 'a'], ['plan'], ['apply', 'install', 'a'], ['plan', 'erase', 'a']):
        assert usage_error(argv).startswith('usage: installtop-dnf.py plan|run [--installroot DIR]')


def test_an_unknown_option_is_a_word_so_a_spec_may_look_like_one():
    request = Request(['plan', 'install', '--nogpgcheck'])
    assert request.specs == ['--nogpgcheck']


def test_undo_items_are_absolute_files_or_removals_of_name_arch():
    request = Request(['run', 'undo', '/k/a-1.0-1.noarch.rpm', '-b.x86_64'])
    assert request.specs == ['/k/a-1.0-1.noarch.rpm', '-b.x86_64']
    assert usage_error(['run', 'undo', 'a-1.0-1.noarch.rpm']) == \
        'usage: an undo item is /PATH/TO/FILE.rpm or -NAME.ARCH, not a-1.0-1.noarch.rpm'
    assert usage_error(['run', 'undo', '-b']).endswith('not -b')


@pytest.mark.parametrize('item, removal', [
    ('-lab-a.noarch', 'lab-a.noarch'), ('-python3.11.x86_64', 'python3.11.x86_64'),
    ('-noarch', None), ('-a.', None), ('-.noarch', None), ('/k/a.rpm', None), ('a.noarch', None)])
def test_undo_removal_needs_a_name_and_an_arch(item, removal):
    assert undo_removal(item) == removal


def test_undo_file_is_an_absolute_path():
    assert is_undo_file('/k/a.rpm') and not is_undo_file('k/a.rpm') and not is_undo_file('-a.x')
