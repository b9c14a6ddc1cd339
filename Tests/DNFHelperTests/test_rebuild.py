"""rebuild: the spec written from an installed package's header (--keep-into's rebuild), and
what it refuses to rebuild rather than make a package that would behave otherwise."""

import pytest
import rpm

from conftest import FakeStop
from installtop_dnf.rebuild import RebuildPlan, RebuildRefused, spec_path_argument, spec_text

S = rpm  # the RPMSENSE_ bits


class Header(dict):
    """An rpm header read from rpm's database: a tag it lacks is None. Its files (rpm.files):
    the stand-in's `files` entry, none here."""

    def __missing__(self, tag):
        return None


def header(**tags):
    values = Header({rpm.RPMTAG_NAME: 'lab-a', rpm.RPMTAG_VERSION: '1.0',
                     rpm.RPMTAG_RELEASE: '1', rpm.RPMTAG_ARCH: 'noarch',
                     rpm.RPMTAG_SUMMARY: 'Lab package a', rpm.RPMTAG_LICENSE: 'MIT',
                     rpm.RPMTAG_DESCRIPTION: 'Takes 100% of nothing.',
                     rpm.RPMTAG_PROVIDENAME: ['lab-a'], rpm.RPMTAG_PROVIDEFLAGS: [S.RPMSENSE_EQUAL],
                     rpm.RPMTAG_PROVIDEVERSION: ['1.0-1']})
    values.update({getattr(rpm, 'RPMTAG_' + name): value for name, value in tags.items()})
    return values


def refusal(**tags):
    with pytest.raises(RebuildRefused) as raised:
        RebuildPlan(header(**tags), FakeStop())
    return str(raised.value)


def test_the_spec_says_the_header_and_leaves_out_what_rpmbuild_adds_itself():
    plan = RebuildPlan(header(
        EPOCH=2, URL='https://example.org/%{name}',
        REQUIRENAME=['rpmlib(CompressedFileNames)', '/bin/sh', 'lab-b', 'lab-c'],
        REQUIREFLAGS=[S.RPMSENSE_RPMLIB | S.RPMSENSE_LESS | S.RPMSENSE_EQUAL,
                      S.RPMSENSE_SCRIPT_PRE | S.RPMSENSE_SCRIPT_POST,
                      S.RPMSENSE_GREATER | S.RPMSENSE_EQUAL | S.RPMSENSE_FIND_REQUIRES,
                      S.RPMSENSE_LESS],
        REQUIREVERSION=['3.0.4-1', '', '2.0', '3'],
        PROVIDENAME=['lab-a', 'lab-api'], PROVIDEFLAGS=[S.RPMSENSE_EQUAL, S.RPMSENSE_EQUAL],
        PROVIDEVERSION=['2:1.0-1', '4'],
        POSTIN='echo done', POSTINPROG=['/bin/sh']), FakeStop())
    spec = plan.spec('/work/scriptlets').split('\n')
    assert spec[:11] == ['Name: lab-a', 'Version: 1.0', 'Release: 1', 'Epoch: 2',
                         'Summary: Lab package a', 'License: MIT',
                         'URL: https://example.org/%%{name}', 'BuildArch: noarch',
                         'AutoReq: no', 'AutoProv: no', 'Requires(pre,post): /bin/sh']
    assert spec[11:13] == ['Requires: lab-b >= 2.0', 'Requires: lab-c < 3']
    assert spec[13] == 'Provides: lab-api = 4'  # lab-a = 2:1.0-1 is rpmbuild's own
    assert spec[14:18] == ['', '%description', 'Takes 100%% of nothing.', '']
    assert spec[18:20] == ['%files', '']
    assert spec[20:] == ['%post -p /bin/sh -f /work/scriptlets/post.scriptlet', '', '']
    assert plan.scriptlets == [('%post -p /bin/sh', 'echo done', 'post.scriptlet')]


def test_what_a_spec_cannot_say_is_refused_with_the_reason():
    assert refusal(TRIGGERNAME=['lab-b']) == 'it has triggers, which installtop does not rebuild'
    assert refusal(PREFIXES=['/opt']) == \
        'it is relocatable (Prefix), which installtop does not rebuild'
    assert refusal(DESCRIPTION='Line one.\n%files\nmore') == (
        'its description has a line that rpmbuild would take for a section of the spec (%files)')
    assert refusal(REQUIRENAME=['lab-b'], REQUIREFLAGS=[S.RPMSENSE_LESS | S.RPMSENSE_GREATER],
                   REQUIREVERSION=['1']) == \
        'its dependency Requires lab-b None 1 has flags (0x6) that a spec cannot say'
    assert refusal(POSTIN='x', POSTINPROG=['/usr/bin/lua -e']) == (
        'the interpreter of its %post scriptlet (/usr/bin/lua -e) cannot be said in a spec')
    assert refusal(PREINFLAGS=4, PREIN='x') == (
        'its %pre scriptlet has flags (0x4) that a spec cannot say')


@pytest.mark.parametrize('value, said', [('100%', '100%%'), ('%{name}', '%%{name}'), ('a', 'a')])
def test_spec_text_keeps_macros_from_expanding(value, said):
    assert spec_text(value) == said


def test_a_path_argument_survives_macro_expansion_and_word_splitting():
    assert spec_path_argument('/tmp/a b/%x"y\'.sh') == '/tmp/a\\ b/%%%%x\\"y\\\'.sh'
    assert spec_path_argument('/work/rebuild-1/post.scriptlet') == '/work/rebuild-1/post.scriptlet'
