# The pure parts of the collection's module (Ansible/ansible_collections/installtop/fleet/plugins/
# modules/job.py): its options mapped onto installtop's command line, and installtop's JSON lines,
# plan text and history read into what the module returns. Run by `swift test`
# (AnsibleCollectionTests) under the system's python3 with Debian's python3-pytest; ansible-core
# is not needed (the module imports it only when Ansible runs it).

import importlib.util
import json
import os

import pytest
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.join(HERE, '..', '..', 'Ansible', 'ansible_collections', 'installtop', 'fleet', 'plugins', 'modules', 'job.py')

spec = importlib.util.spec_from_file_location('installtop_job', MODULE)
job = importlib.util.module_from_spec(spec)
spec.loader.exec_module(job)

BIN = '/usr/bin/installtop'


def params(**given):
    """The module's parameters as Ansible hands them over: every option, defaults filled in."""
    values = {name: option.get('default') for name, option in job.ARGUMENT_SPEC.items()}
    values.update(given)
    return values


# MARK: - The command line

def test_upgrade_runs_with_yes_and_json_in_the_given_root_and_history():
    argv = job.job_command(params(apt_config='/srv/root/apt.conf', history_db='/var/lib/installtop/history.sqlite3'), BIN)
    assert argv == [BIN, 'apt', 'upgrade', '--apt-config', '/srv/root/apt.conf',
                    '--history-db', '/var/lib/installtop/history.sqlite3', '--yes', '--json']


def test_each_state_is_its_verb():
    assert job.job_command(params(state='present', packages=['curl', 'openssl']), BIN)[:5] == [BIN, 'apt', 'install', 'curl', 'openssl']
    assert job.job_command(params(state='absent', packages=['telnet']), BIN)[:4] == [BIN, 'apt', 'remove', 'telnet']
    assert job.job_command(params(state='full_upgraded'), BIN)[:3] == [BIN, 'apt', 'full-upgrade']
    assert job.job_command(params(tool='dnf', packages=['openssl']), BIN) == [BIN, 'dnf', 'upgrade', 'openssl', '--yes', '--json']
    assert job.job_command(params(tool='dnf'), BIN) == [BIN, 'dnf', 'upgrade', '--yes', '--json']


def test_confirm_arms_the_job_with_installtops_own_checks():
    argv = job.job_command(params(confirm='10m', checks=['curl -fsS http://localhost/', 'true'], checks_dir='/srv/checks',
                                  revert_on_regression=True), BIN)
    assert argv == [BIN, 'apt', 'upgrade', '--yes', '--json', '--confirm', '10m',
                    '--check', 'curl -fsS http://localhost/', '--check', 'true', '--checks-dir', '/srv/checks',
                    '--revert-on-regression']


def test_check_mode_asks_for_the_plan_only():
    # Off a terminal without --yes installtop prints the plan and runs nothing; nothing is armed.
    argv = job.job_command(params(confirm='10m', apt_config='/srv/apt.conf'), BIN, check_mode=True)
    assert argv == [BIN, 'apt', 'upgrade', '--apt-config', '/srv/apt.conf', '--plain']
    assert '--yes' not in argv and '--confirm' not in argv


@pytest.mark.parametrize('given, words', [
    (dict(packages=['curl']), "apt's upgrade takes no package list"),
    (dict(state='full_upgraded', tool='dnf'), 'dnf has none'),
    (dict(state='present'), 'state=present needs packages'),
    (dict(checks=['true']), 'go with confirm'),
    (dict(health_check='true'), 'go with confirm'),
    (dict(tool='dnf', apt_config='/x'), 'apt_config is for apt jobs'),
])
def test_what_installtop_cannot_do_is_refused_before_anything_runs(given, words):
    with pytest.raises(ValueError) as refused:
        job.job_command(params(**given), BIN)
    assert words in str(refused.value)


def test_a_socket_is_the_machine_engine_of_this_command():
    environment = job.command_environment(params(socket='/run/other.sock'), {'XDG_RUNTIME_DIR': '/run/user/0', 'PATH': '/bin'})
    assert environment['INSTALLTOP_MACHINE_SOCKET'] == '/run/other.sock'
    assert 'XDG_RUNTIME_DIR' not in environment and environment['PATH'] == '/bin'
    assert 'INSTALLTOP_MACHINE_SOCKET' not in job.command_environment(params(), {})


def test_confirm_revert_and_history_commands():
    assert job.confirm_command(BIN, 12, '/h.db') == [BIN, 'confirm', '--run', '12', '--history-db', '/h.db']
    assert job.revert_command(BIN, 'dnf', 12) == [BIN, 'dnf', 'revert', '12', '--yes', '--plain']
    assert job.history_command(BIN, None, limit=5) == [BIN, 'history', '--jobs', '--json', '--limit', '5']


# MARK: - Reading installtop

@pytest.mark.parametrize('title, read', [
    ('openssl 3.0.14 \u2192 3.0.15', ('openssl', 'upgrade', '3.0.14', '3.0.15')),
    ('curl 7.88.1', ('curl', 'install', None, '7.88.1')),
    ('telnet 0.17 (remove)', ('telnet', 'remove', '0.17', None)),
    ('tzdata 2024a-1 (reinstall)', ('tzdata', 'reinstall', '2024a-1', '2024a-1')),
    ('lab-a 1:2.0~rc1-1 \u2192 1:2.0-1', ('lab-a', 'upgrade', '1:2.0~rc1-1', '1:2.0-1')),
])
def test_update_titles(title, read):
    entry = job.parse_title(title)
    assert (entry['name'], entry['action'], entry['from'], entry['to']) == read


def test_the_plan_printed_off_a_terminal():
    text = ('The following packages will be INSTALLED:\n  lab-new 1.0\n'
            'The following packages will be upgraded:\n  lab-a 1.0 \u2192 2.0\n  base-files 12 \u2192 12.1 [essential]\n'
            'WARNING: this upgrades the Essential package base-files.\n'
            '2 to upgrade, 1 to install, 12.0 kB to download.\n')
    packages, summary = job.parse_plan(text)
    assert [(p['name'], p['action'], p['from'], p['to']) for p in packages] == [
        ('lab-new', 'install', None, '1.0'), ('lab-a', 'upgrade', '1.0', '2.0'), ('base-files', 'upgrade', '12', '12.1')]
    assert all(p['outcome'] is None for p in packages)
    assert summary == '2 to upgrade, 1 to install, 12.0 kB to download.'
    assert job.parse_plan('Nothing to upgrade: every package is at its newest version.\n')[0] == []


def test_the_plan_of_a_dnf_job():
    text = ('Installing:\n  lab-dep 1.0-1 [noarch, lab] (no longer needed)\n'
            'Upgrading:\n  lab-a 1.0-1 \u2192 2.0-1 [noarch, lab]\n'
            'Downgrading:\n  lab-b 2.0-1 \u2192 1.0-1 [x86_64, lab]\n'
            'Removing:\n  lab-c 1.0-1 (remove) [noarch]\n'
            'Obsoleting (removed):\n  lab-old 1.0-1 (obsoleted by lab-a) [noarch]\n'
            '1 to install, 1 to upgrade, 1 to downgrade, 2 to remove, 3.1 kB to download.\n')
    packages, summary = job.parse_plan(text)
    assert [(p['name'], p['action'], p['from'], p['to']) for p in packages] == [
        ('lab-dep', 'install', None, '1.0-1'), ('lab-a', 'upgrade', '1.0-1', '2.0-1'), ('lab-b', 'downgrade', '2.0-1', '1.0-1'),
        ('lab-c', 'remove', '1.0-1', None), ('lab-old', 'obsolete', '1.0-1', None)]
    assert summary.startswith('1 to install')


def armed_job_lines(window_event):
    events = [
        {'event': 'job.queued', 'job': 1, 'name': 'apt upgrade', 'operation': 'install', 'packageTool': 'apt',
         'updates': [{'index': 0, 'id': 'lab-a', 'title': 'lab-a 1.0 \u2192 2.0'}, {'index': 1, 'id': 'lab-b', 'title': 'lab-b 1.0 \u2192 2.0'}]},
        {'event': 'job.started', 'job': 1},
        {'event': 'update.started', 'job': 1, 'index': 0, 'id': 'lab-a'},
        {'event': 'progress', 'job': 1, 'index': 0, 'updatePercent': 50.0, 'jobPercent': 25.0, 'message': 'Unpacking'},
        {'event': 'update.completed', 'job': 1, 'index': 0, 'id': 'lab-a', 'resultCode': 2, 'result': 'succeeded',
         'hResult': '0x00000000', 'unmappedResultCode': 0, 'rebootRequired': False, 'durationMs': 12},
        {'event': 'update.completed', 'job': 1, 'index': 1, 'id': 'lab-b', 'resultCode': 4, 'result': 'failed',
         'hResult': '0x8024200B', 'unmappedResultCode': 1, 'rebootRequired': False, 'durationMs': 12,
         'reason': 'dpkg: error processing package lab-b (--configure)'},
        {'event': 'job.completed', 'job': 1, 'resultCode': 4, 'result': 'failed', 'hResult': '0x00000000', 'rebootRequired': True},
        {'event': 'run.armed', 'run': 7, 'deadline': '2026-11-28T16:00:00Z', 'regressions': [], 'revertOnRegression': False},
        window_event,
    ]
    return [json.dumps(e) + '\n' for e in events] + ['not json\n', '{broken\n']


def test_events_of_an_armed_job():
    state = job.read_events(armed_job_lines({'event': 'run.confirmed', 'run': 7}))
    assert state['job'] == 1 and state['run'] == 7
    assert state['result'] == 'failed' and state['result_code'] == 4 and state['reboot_required'] is True
    assert state['armed']['deadline'] == '2026-11-28T16:00:00Z'
    assert state['window'] == {'event': 'run.confirmed', 'run': 7}
    assert state['updates'][1]['reason'].startswith('dpkg: error processing')


def test_per_package_results_from_the_events_and_the_history_run():
    state = job.read_events(armed_job_lines({'event': 'run.reverted', 'run': 7, 'revertRun': 8, 'reason': 'no confirmation'}))
    run = {'run': 7, 'kind': 'apt', 'packages': [
        {'name': 'lab-a', 'action': 'upgrade', 'oldVersion': '1.0', 'newVersion': '2.0', 'result': 'succeeded'},
        {'name': 'lab-b', 'action': 'upgrade', 'oldVersion': '1.0', 'newVersion': '2.0', 'result': 'failed'},
        {'name': 'lab-c', 'action': 'install', 'oldVersion': None, 'newVersion': '3.0', 'result': 'succeeded'}]}
    packages = job.package_results(state, run)
    assert [(p['name'], p['action'], p['from'], p['to'], p['outcome'], p['result_code'], p['hresult']) for p in packages] == [
        ('lab-a', 'upgrade', '1.0', '2.0', 'succeeded', 2, '0x00000000'),
        ('lab-b', 'upgrade', '1.0', '2.0', 'failed', 4, '0x8024200B'),
        ('lab-c', 'install', None, '3.0', 'succeeded', None, None)]
    assert job.changed_anything(packages)
    # Without a history the titles say the versions.
    alone = job.package_results(state)
    assert [(p['name'], p['from'], p['to']) for p in alone] == [('lab-a', '1.0', '2.0'), ('lab-b', '1.0', '2.0')]
    assert not job.changed_anything([p for p in alone if p['name'] == 'lab-b'])


def test_the_jobs_run_in_the_history():
    lines = [json.dumps(r) + '\n' for r in [
        {'run': 9, 'kind': 'apt', 'observed': True, 'startedAt': '2026-11-28T15:00:03.000Z'},
        {'run': 8, 'kind': 'apt', 'observed': False, 'startedAt': '2026-11-28T15:00:02.000Z'},
        {'run': 7, 'kind': 'apt', 'observed': False, 'startedAt': '2026-11-28T14:00:00.000Z'},
    ]]
    assert job.find_run(lines, since='2026-11-28T15:00:00Z')['run'] == 8
    assert job.find_run(lines, run=7)['run'] == 7
    assert job.find_run(lines, since='2026-11-28T16:00:00Z') is None
    assert job.find_run(lines, tool='dnf') is None


def test_the_run_with_the_jobs_packages():
    lines = [json.dumps(r) + '\n' for r in [
        {'run': 9, 'kind': 'apt', 'observed': False, 'startedAt': '2026-11-28T15:00:03.000Z', 'packages': [{'name': 'other'}]},
        {'run': 8, 'kind': 'apt', 'observed': False, 'startedAt': '2026-11-28T15:00:02.000Z',
         'packages': [{'name': 'lab-b'}, {'name': 'lab-a'}]},
    ]]
    assert job.find_run(lines, since='2026-11-28T15:00:00.000Z', names=['lab-a', 'lab-b'])['run'] == 8
    assert job.find_run(lines, since='2026-11-28T15:00:00.000Z')['run'] == 9
    # The history's times have milliseconds: a run in the same second as `since` is found.
    assert job.find_run(lines, since='2026-11-28T15:00:03.000Z')['run'] == 9


def test_a_failure_is_said_in_installtops_words():
    said = job.failure_message(1, ['Reading package lists...', 'installtop: apt upgrade: lab-b failed: dpkg said no'], [])
    assert said == 'installtop: apt upgrade: lab-b failed: dpkg said no'
    packages = [{'name': 'lab-b', 'outcome': 'failed', 'reason': 'exited with status 1'}, {'name': 'lab-a', 'outcome': 'succeeded'}]
    assert job.failure_message(1, [], packages) == 'lab-b: exited with status 1'
    assert job.failure_message(5, [], []) == 'installtop exited 5'
    # How the job ran is no reason: the package's reason is.
    engine = ["installtop: apt upgrade runs in the machine's engine (pid 9, /run/installtop.sock), recorded in /h.db: it goes on",
              'installtop: downloading 1 of 1 \u00b7 100 %', 'installtop: apt upgrade: health before the job: sshd -t: passed']
    assert job.failure_message(1, engine, packages) == 'lab-b: exited with status 1'
    assert job.failure_message(1, engine, []) == 'installtop exited 1'


def test_an_armed_run_is_kept_only_when_nothing_regressed_and_the_health_check_passed():
    assert job.keep_decision([], None) == ('confirm', None)
    assert job.keep_decision([], {'command': 'true', 'rc': 0, 'output': ''}) == ('confirm', None)
    assert job.keep_decision([], {'command': 'curl -f x', 'rc': 22, 'output': 'curl: (22) 503\n'}) == (
        'failed', 'the health check `curl -f x` failed (exit 22): curl: (22) 503')
    assert job.keep_decision([], {'command': 'sleep 9', 'rc': None, 'output': ''}) == ('failed', 'the health check `sleep 9` timed out')
    regressed = [{'check': 'sshd -t', 'before': 'passed', 'after': 'failed: exit status 255'}]
    assert job.keep_decision(regressed, None) == ('failed', "installtop's checks regressed: sshd -t: passed -> failed: exit status 255")


def test_a_run_not_kept_says_why_and_how_installtop_ended_it():
    lines = ['installtop: run 2 armed: …', 'installtop: run 2: reverted at 2026-11-28 16:05:09 UTC by run 3: asked by the operator']
    assert job.not_kept_message(2, 'the health check `x` failed (exit 1)', lines) == (
        'run 2 not kept: the health check `x` failed (exit 1); installtop: run 2: reverted at 2026-11-28 16:05:09 UTC by run 3: asked by the operator')
    assert job.not_kept_message(2, 'why', []) == 'run 2 not kept: why'


def test_the_engines_history_as_installtop_history_names_it():
    said = ("installtop: showing the machine's engine's history, /var/lib/installtop/history.sqlite3 "
            "(installtop apt records its jobs there; --history-db for another)\n")
    assert job.engine_history(said) == '/var/lib/installtop/history.sqlite3'
    assert job.engine_history('') is None
    assert job.engine_history("installtop: showing the service's history, /var/lib/x.db (/root/h.db does not exist)\n") is None


# MARK: - The documentation

def test_documentation_and_argument_spec_agree():
    documented = yaml.safe_load(job.DOCUMENTATION)['options']
    assert sorted(documented) == sorted(job.ARGUMENT_SPEC)
    for name, option in job.ARGUMENT_SPEC.items():
        doc = documented[name]
        assert doc.get('type', 'str') == option.get('type', 'str'), name
        assert doc.get('default') == option.get('default'), name
        assert doc.get('choices') == option.get('choices'), name
        assert doc.get('elements') == option.get('elements'), name
    yaml.safe_load(job.EXAMPLES)
    returned = yaml.safe_load(job.RETURN)
    assert {'run', 'packages', 'reboot_required', 'result'} <= set(returned)
