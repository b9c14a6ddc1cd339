"""Tests of installtop's Ansible callback plugin (Sources/installtop/Fleet/plugin/installtop.py).

Each test runs the real ansible-playbook (from the venv at .build/ansible-venv, see
ANSIBLE_VENV) with the plugin enabled, the progress pipe on fd 3 and a control pipe on fd 4,
against hosts that all use `ansible_connection=local`: no network, and every task only touches
files under the test's temporary directory.

Run: python3 -m pytest -q Tests/FleetPluginTests
"""
import fcntl
import json
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
PLUGIN_DIR = os.path.join(ROOT, 'Sources', 'installtop', 'Fleet', 'plugin')
VENV = os.environ.get('ANSIBLE_VENV', os.path.join(ROOT, '.build', 'ansible-venv'))
PLAYBOOK_BIN = os.path.join(VENV, 'bin', 'ansible-playbook')
PYTHON_BIN = os.path.join(VENV, 'bin', 'python')

pytestmark = pytest.mark.skipif(not os.path.exists(PLAYBOOK_BIN), reason='no ansible venv at %s' % VENV)

HOSTS4 = ['web1', 'web2', 'web3', 'web4']


# ---------------------------------------------------------------- running ansible-playbook

class Run(object):
    def __init__(self, messages, raw_lines, returncode, stdout, elapsed):
        self.messages = messages
        self.raw_lines = raw_lines
        self.returncode = returncode
        self.stdout = stdout
        self.elapsed = elapsed

    def of(self, kind, job=None):
        return [m for m in self.messages if m['type'] == kind and (job is None or m.get('job') == job)]

    def plans(self):
        return {m['job']: m for m in self.of('plan')}

    def titles(self, job):
        return [u.get('title') for u in self.plans()[job]['updates']]

    def update_id(self, job, title):
        return next(u['id'] for u in self.plans()[job]['updates'] if u.get('title') == title)

    def index(self, kind, job, update=None):
        """Position of the first message of that kind for job (and update), or None."""
        for i, m in enumerate(self.messages):
            if m['type'] == kind and m.get('job') == job and (update is None or m.get('update') == update):
                return i
        return None

    def finished(self, job, title):
        update = self.update_id(job, title)
        found = [m for m in self.of('finished', job) if m['update'] == update]
        assert len(found) <= 1
        return found[0] if found else None

    def started_titles(self, job):
        ids = {u['id']: u.get('title') for u in self.plans()[job]['updates']}
        return [ids[m['update']] for m in self.of('started', job)]


def write_inventory(tmp, hosts=HOSTS4, host_vars=None):
    lines = ['[web]']
    for host in hosts:
        extra = ' '.join('%s=%s' % kv for kv in sorted((host_vars or {}).get(host, {}).items()))
        lines.append(('%s %s' % (host, extra)).strip())
    lines += ['', '[web:vars]', 'ansible_connection=local', 'ansible_python_interpreter=%s' % PYTHON_BIN]
    path = os.path.join(tmp, 'inventory.ini')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def run_playbook(tmp, playbook, args=(), hosts=HOSTS4, host_vars=None, on_message=None, with_fds=True,
                 timeout=60):
    """Runs `playbook` (YAML text; {tmp} is replaced) and returns a Run.

    on_message(message, control) is called by the reader for every message; control(obj)
    writes one control line to the plugin's fd 4.
    """
    tmp = str(tmp)
    inventory = write_inventory(tmp, hosts, host_vars)
    book = os.path.join(tmp, 'playbook.yml')
    with open(book, 'w') as f:
        f.write(textwrap.dedent(playbook).replace('{tmp}', tmp))
    env = dict(os.environ)
    env.update({
        'ANSIBLE_CALLBACK_PLUGINS': PLUGIN_DIR,
        'ANSIBLE_CALLBACKS_ENABLED': 'installtop',
        'ANSIBLE_NOCOLOR': '1',
        'ANSIBLE_RETRY_FILES_ENABLED': '0',
        'ANSIBLE_HOST_KEY_CHECKING': '0',
        'ANSIBLE_LOCAL_TEMP': os.path.join(tmp, 'ansible-local'),
        'ANSIBLE_REMOTE_TEMP': os.path.join(tmp, 'ansible-remote'),
        'ANSIBLE_HOME': os.path.join(tmp, 'ansible-home'),
    })
    for key in ('INSTALLTOP_PROGRESS_FD', 'INSTALLTOP_CONTROL_FD'):
        env.pop(key, None)
    command = [PLAYBOOK_BIN, '-i', inventory, book] + list(args)
    started = time.monotonic()
    if not with_fds:
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return Run([], [], done.returncode, done.stdout.decode(errors='replace'), time.monotonic() - started)

    progress_r, progress_w = os.pipe()
    control_r, control_w = os.pipe()
    env['INSTALLTOP_PROGRESS_FD'] = '3'
    env['INSTALLTOP_CONTROL_FD'] = '4'
    # The child gets the pipes at 3 and 4, as installtop gives them: moved to their numbers
    # between fork and exec (through fds >= 10 so the two moves cannot clash), kept by pass_fds.
    def move_descriptors():
        high_progress = fcntl.fcntl(progress_w, fcntl.F_DUPFD, 10)
        high_control = fcntl.fcntl(control_r, fcntl.F_DUPFD, 10)
        os.dup2(high_progress, 3)
        os.dup2(high_control, 4)

    process = subprocess.Popen(command, env=env, pass_fds=(3, 4), preexec_fn=move_descriptors,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    os.close(progress_w)
    os.close(control_r)
    control_file = os.fdopen(control_w, 'w', buffering=1)

    def control(obj):
        control_file.write(json.dumps(obj) + '\n')
        control_file.flush()

    messages, raw, times = [], [], []

    def read():
        with os.fdopen(progress_r, 'rb') as progress:
            for line in progress:
                raw.append(line)
                times.append(time.monotonic())
                try:
                    message = json.loads(line.decode('utf-8'))
                except ValueError:
                    message = {'type': '<not json>', 'line': line}
                messages.append(message)
                if on_message:
                    on_message(message, control)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        out, _ = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    reader.join(10)
    control_file.close()
    run = Run(messages, raw, process.returncode, out.decode(errors='replace'), time.monotonic() - started)
    run.times = times
    check_protocol(run)
    return run


# ---------------------------------------------------------------- the protocol, as Swift decodes it

RESULTS = {'succeeded', 'succeededWithErrors', 'failed', 'aborted', 'skipped'}


def _str(m, key, optional=False):
    if optional and m.get(key) is None:
        return
    assert isinstance(m.get(key), str), 'member %r of %r must be a string' % (key, m)


def check_protocol(run):
    """Every line is a JSON object the Swift decoder accepts, refers to declared jobs and
    updates, and follows the order installtop needs."""
    assert run.raw_lines, 'the plugin wrote nothing; ansible said:\n' + run.stdout
    for raw in run.raw_lines:
        assert raw.endswith(b'\n') and len(raw) <= 16 * 1024
    assert run.messages[0] == {'type': 'hello', 'protocol': 1, 'driver': 'ansible'}
    plans, ended = {}, set()
    started, finished = set(), set()
    for m in run.messages:
        assert isinstance(m, dict) and isinstance(m.get('type'), str), m
        kind = m['type']
        if kind == 'hello':
            assert m['protocol'] == 1 and m is run.messages[0]
            continue
        if kind == 'plan':
            _str(m, 'job')
            _str(m, 'name')
            assert m['operation'] in ('install', 'uninstall')
            assert isinstance(m['updates'], list) and m['updates']
            ids = [u['id'] for u in m['updates']]
            assert all(isinstance(i, str) for i in ids) and len(set(ids)) == len(ids), m
            for u in m['updates']:
                _str(u, 'title', optional=True)
            assert m['job'] not in plans, 'job planned twice: %s' % m['job']
            plans[m['job']] = set(ids)
            continue
        if kind == 'stopping':
            _str(m, 'job', optional=True)
            assert isinstance(m['waitingFor'], list) and all(isinstance(i, str) for i in m['waitingFor'])
            continue
        _str(m, 'job')
        job = m['job']
        assert job in plans, 'undeclared job: %r' % m
        assert job not in ended, 'message after jobEnded: %r' % m
        if kind == 'jobEnded':
            _str(m, 'reason', optional=True)
            ended.add(job)
        elif kind in ('started', 'reboot', 'finished'):
            _str(m, 'update')
            assert m['update'] in plans[job], 'undeclared update: %r' % m
            ref = (job, m['update'])
            if kind == 'started':
                assert ref not in started and ref not in finished, m
                started.add(ref)
            elif kind == 'finished':
                assert m['result'] in RESULTS
                _str(m, 'reason', optional=True)
                assert m.get('changed') is None or isinstance(m['changed'], bool)
                assert ref not in finished, 'finished twice: %r' % m
                finished.add(ref)
            else:
                assert ref not in finished
        elif kind == 'output':
            _str(m, 'update', optional=True)
            assert m.get('update') is None or m['update'] in plans[job]
            assert m.get('stream', 'stdout') in ('stdout', 'stderr')
            _str(m, 'line')
        else:
            raise AssertionError('unknown type: %r' % m)
    assert ended == set(plans), 'jobs never ended: %s' % (set(plans) - ended)


def ended_reason(run, job):
    ends = run.of('jobEnded', job)
    assert len(ends) == 1
    return ends[0]['reason']


# ---------------------------------------------------------------- tests

def test_small_play_message_sequence(tmp_path):
    run = run_playbook(tmp_path, '''
        - name: small
          hosts: web
          tasks:
            - name: say hello
              ansible.builtin.command: echo hello
            - name: only on web2
              ansible.builtin.debug:
                msg: hi from web2
              when: inventory_hostname == 'web2'
        ''', hosts=['web1', 'web2'])
    assert run.returncode == 0, run.stdout
    for job in ('1/web1', '1/web2'):
        assert run.titles(job) == ['Gathering Facts', 'say hello', 'only on web2']
        assert run.plans()[job]['name'] == job[2:] + ' \u00b7 small'
        assert run.plans()[job]['updates'][0]['id'] == 'gather-facts'
        assert run.started_titles(job) == ['Gathering Facts', 'say hello', 'only on web2']
        assert run.finished(job, 'Gathering Facts')['result'] == 'succeeded'
        assert run.finished(job, 'say hello') == {
            'type': 'finished', 'job': job, 'update': run.update_id(job, 'say hello'),
            'result': 'succeeded', 'changed': True}
        assert ended_reason(run, job) == 'play ended'
    assert run.finished('1/web1', 'only on web2')['result'] == 'skipped'
    assert run.finished('1/web1', 'only on web2')['reason'] == 'Conditional result was False'
    assert run.finished('1/web2', 'only on web2')['changed'] is False
    hello = run.update_id('1/web1', 'say hello')
    assert {'type': 'output', 'job': '1/web1', 'update': hello, 'stream': 'stdout', 'line': 'hello'} in run.messages
    # plans come before anything starts
    assert max(i for i, m in enumerate(run.messages) if m['type'] == 'plan') < run.index('started', '1/web1')
    if os.environ.get('SHOW_MESSAGES'):
        sys.stderr.write(b''.join(run.raw_lines).decode())


def test_four_hosts_failure_skip_reboot_and_ignored_errors(tmp_path):
    os.makedirs(os.path.join(str(tmp_path), 'web2'))
    open(os.path.join(str(tmp_path), 'web2', 'reboot-required'), 'w').close()
    run = run_playbook(tmp_path, '''
        - name: four
          hosts: web
          gather_facts: false
          tasks:
            - name: prepare
              ansible.builtin.file:
                path: "{tmp}/{{ inventory_hostname }}"
                state: directory
            - name: reboot flag
              ansible.builtin.stat:
                path: "{tmp}/{{ inventory_hostname }}/reboot-required"
              register: reboot_flag
            - name: module says reboot
              ansible.builtin.debug:
                var: reboot_required
            - name: tolerated
              ansible.builtin.command: /bin/sh -c 'echo tolerated >&2; exit 1'
              ignore_errors: true
              when: inventory_hostname == 'web1'
            - name: break web4
              ansible.builtin.command: /bin/sh -c 'echo first; echo the disk is on fire >&2; exit 3'
              when: inventory_hostname == 'web4'
            - name: not for now
              ansible.builtin.debug:
                msg: never
              when: false
            - name: after
              ansible.builtin.command: touch "{tmp}/{{ inventory_hostname }}/after"
        ''', host_vars={'web3': {'reboot_required': 'True'}})
    assert run.returncode == 2, run.stdout  # a host failed
    assert set(run.plans()) == {'1/' + h for h in HOSTS4}
    # web4 fails: reason is the command's last stderr line; nothing later starts; job ends
    failed = run.finished('1/web4', 'break web4')
    assert failed['result'] == 'failed' and failed['reason'] == 'the disk is on fire'
    assert run.started_titles('1/web4') == ['prepare', 'reboot flag', 'module says reboot', 'tolerated', 'break web4']
    assert ended_reason(run, '1/web4') == 'host failed'
    assert run.index('jobEnded', '1/web4') > run.index('finished', '1/web4', failed['update'])
    assert not os.path.exists(os.path.join(str(tmp_path), 'web4', 'after'))
    # web1's failure is ignored: failed, but the host goes on
    tolerated = run.finished('1/web1', 'tolerated')
    assert tolerated['result'] == 'failed' and tolerated['reason'] == 'tolerated'
    assert run.finished('1/web1', 'after')['result'] == 'succeeded'
    assert ended_reason(run, '1/web1') == 'play ended'
    # skipped tasks carry the reason
    skipped = run.finished('1/web2', 'not for now')
    assert skipped['result'] == 'skipped' and skipped['reason'] == 'Conditional result was False'
    # reboot: web2 by the stat of its flag file, web3 by a result saying reboot_required
    reboots = [(m['job'], m['update']) for m in run.of('reboot')]
    assert sorted(reboots) == sorted([('1/web2', run.update_id('1/web2', 'reboot flag')),
                                      ('1/web3', run.update_id('1/web3', 'module says reboot'))])
    for job, update in reboots:
        assert run.index('reboot', job, update) < run.index('finished', job, update)
    # output of a failing command, both streams
    outputs = [(m['stream'], m['line']) for m in run.of('output', '1/web4') if m['update'] == failed['update']]
    assert ('stdout', 'first') in outputs and ('stderr', 'the disk is on fire') in outputs


def test_forks_below_host_count_start_later(tmp_path):
    run = run_playbook(tmp_path, '''
        - hosts: web
          gather_facts: false
          tasks:
            - name: slow
              ansible.builtin.command: sleep 1
        ''', args=['--forks', '2'])
    assert run.returncode == 0, run.stdout
    starts = [m['job'] for m in run.of('started')]
    assert starts == ['1/web1', '1/web2', '1/web3', '1/web4']
    # web3 and web4 get no start event until a worker frees: one sleep later. (Their start
    # may come before web1's finished: the strategy queues the next host as soon as a worker
    # process exits, before it reads that worker's result.)
    first = run.times[run.index('started', '1/web1')]
    for job in ('1/web3', '1/web4'):
        assert run.times[run.index('started', job)] - first > 0.8
    assert run.times[run.index('started', '1/web2')] - first < 0.5


def test_serial_plans_every_host_once_at_the_first_batch(tmp_path):
    run = run_playbook(tmp_path, '''
        - name: rolling
          hosts: web
          serial: 2
          tasks:
            - name: one
              ansible.builtin.command: "true"
            - name: two
              ansible.builtin.command: "true"
        ''')
    assert run.returncode == 0, run.stdout
    assert [m['job'] for m in run.of('plan')] == ['1/web1', '1/web2', '1/web3', '1/web4']
    first_start = next(i for i, m in enumerate(run.messages) if m['type'] == 'started')
    assert all(i < first_start for i, m in enumerate(run.messages) if m['type'] == 'plan')
    for host in HOSTS4:
        # each batch gathers facts with a new task (new uuid): still the planned update
        assert run.started_titles('1/' + host) == ['Gathering Facts', 'one', 'two']
        assert run.finished('1/' + host, 'Gathering Facts')['result'] == 'succeeded'
    # batch 2 starts after batch 1 is done
    assert run.index('started', '1/web3') > run.index('finished', '1/web1', run.update_id('1/web1', 'two'))


def test_limit_with_serial_plans_only_limited_hosts(tmp_path):
    run = run_playbook(tmp_path, '''
        - hosts: web
          gather_facts: false
          serial: 1
          tasks:
            - name: one
              ansible.builtin.command: "true"
        ''', args=['--limit', 'web1,web2'])
    assert run.returncode == 0, run.stdout
    assert sorted(run.plans()) == ['1/web1', '1/web2']
    assert sorted(m['job'] for m in run.of('started')) == ['1/web1', '1/web2']


def test_free_strategy_hosts_advance_independently(tmp_path):
    run = run_playbook(tmp_path, '''
        - hosts: web
          gather_facts: false
          strategy: free
          tasks:
            - name: first
              ansible.builtin.command: "sleep {{ '1.5' if inventory_hostname == 'web1' else '0' }}"
            - name: second
              ansible.builtin.command: "true"
        ''', hosts=['web1', 'web2'])
    assert run.returncode == 0, run.stdout
    web2_second = run.index('started', '1/web2', run.update_id('1/web2', 'second'))
    web1_first_done = run.index('finished', '1/web1', run.update_id('1/web1', 'first'))
    assert web2_second < web1_first_done
    assert run.started_titles('1/web1') == ['first', 'second']


def test_two_plays_have_their_own_jobs(tmp_path):
    run = run_playbook(tmp_path, '''
        - name: first play
          hosts: web
          gather_facts: false
          tasks:
            - name: a
              ansible.builtin.command: "true"
        - name: second play
          hosts: web1
          gather_facts: false
          tasks:
            - name: b
              ansible.builtin.command: "true"
            - name: c
              ansible.builtin.command: "true"
        ''', hosts=['web1', 'web2'])
    assert run.returncode == 0, run.stdout
    assert [m['job'] for m in run.of('plan')] == ['1/web1', '1/web2', '2/web1']
    assert run.titles('2/web1') == ['b', 'c']
    assert run.plans()['2/web1']['name'] == 'web1 \u00b7 second play'
    # play 1's jobs end before play 2 is planned
    assert run.index('jobEnded', '1/web2') < run.index('plan', '2/web1')
    assert ended_reason(run, '1/web1') == 'play ended'


def test_tags_leave_untagged_tasks_out_of_the_plan(tmp_path):
    run = run_playbook(tmp_path, '''
        - hosts: web
          tasks:
            - name: untagged
              ansible.builtin.command: "true"
            - name: tagged
              ansible.builtin.command: "true"
              tags: [x]
            - block:
                - name: in a tagged block
                  ansible.builtin.command: "true"
              rescue:
                - name: rescue of it
                  ansible.builtin.command: "true"
              always:
                - name: always of it
                  ansible.builtin.command: "true"
              tags: [x]
        ''', hosts=['web1'], args=['--tags', 'x'])
    assert run.returncode == 0, run.stdout
    # fact gathering is tagged 'always' by Ansible, so it stays
    assert run.titles('1/web1') == ['Gathering Facts', 'tagged', 'in a tagged block', 'rescue of it', 'always of it']
    assert run.started_titles('1/web1') == ['Gathering Facts', 'tagged', 'in a tagged block', 'always of it']


def test_rescued_failure_goes_on_and_always_runs_before_host_failed(tmp_path):
    run = run_playbook(tmp_path, '''
        - hosts: web
          gather_facts: false
          tasks:
            - block:
                - name: fails, rescued
                  ansible.builtin.fail:
                    msg: rescued failure
              rescue:
                - name: rescuer
                  ansible.builtin.command: "true"
            - block:
                - name: fails for real
                  ansible.builtin.fail:
                    msg: real failure
              always:
                - name: cleanup
                  ansible.builtin.command: "true"
            - name: never
              ansible.builtin.command: "true"
        ''', hosts=['web1'])
    assert run.returncode == 2
    assert run.finished('1/web1', 'fails, rescued')['reason'] == 'rescued failure'
    assert run.finished('1/web1', 'rescuer')['result'] == 'succeeded'
    assert run.finished('1/web1', 'fails for real')['reason'] == 'real failure'
    assert run.finished('1/web1', 'cleanup')['result'] == 'succeeded'
    assert run.started_titles('1/web1') == ['fails, rescued', 'rescuer', 'fails for real', 'cleanup']
    assert ended_reason(run, '1/web1') == 'host failed'
    assert run.messages[-1] == {'type': 'jobEnded', 'job': '1/web1', 'reason': 'host failed'}


def test_unreachable_host_ends(tmp_path):
    # An ssh "client" that fails as ssh does when it cannot connect (exit 255): no network.
    fake_ssh = os.path.join(str(tmp_path), 'fake-ssh')
    with open(fake_ssh, 'w') as f:
        f.write('#!/bin/sh\necho "ssh: connect to host web2 port 22: Connection refused" >&2\nexit 255\n')
    os.chmod(fake_ssh, 0o755)
    run = run_playbook(tmp_path, '''
        - hosts: web
          gather_facts: false
          tasks:
            - name: one
              ansible.builtin.command: "true"
            - name: two
              ansible.builtin.command: "true"
        ''', hosts=['web1', 'web2'],
        host_vars={'web2': {'ansible_connection': 'ssh', 'ansible_ssh_executable': fake_ssh,
                            'ansible_ssh_retries': '0'}})
    assert run.returncode == 4, run.stdout
    finished = run.finished('1/web2', 'one')
    assert finished['result'] == 'failed' and finished['reason'].startswith('unreachable: ')
    assert 'Connection refused' in finished['reason']
    assert ended_reason(run, '1/web2') == 'host unreachable'
    assert run.started_titles('1/web2') == ['one']
    assert run.started_titles('1/web1') == ['one', 'two']


STOP_PLAYBOOK = '''
    - hosts: web
      gather_facts: false
      tasks:
        - name: sleeper
          ansible.builtin.command: sleep 2
          notify: handler
        - name: later
          ansible.builtin.command: touch "{tmp}/later-{{ inventory_hostname }}"
        - name: last
          ansible.builtin.command: touch "{tmp}/last-{{ inventory_hostname }}"
      handlers:
        - name: handler
          ansible.builtin.command: touch "{tmp}/handler-{{ inventory_hostname }}"
    - name: next play
      hosts: web
      gather_facts: false
      tasks:
        - name: next
          ansible.builtin.command: touch "{tmp}/next-{{ inventory_hostname }}"
    '''


def stop_when_all_sleeping(job=None, hosts=HOSTS4):
    """on_message: once every host started the sleeper, ask for a stop (of job, or all)."""
    seen = set()

    def on_message(message, control):
        if message['type'] == 'started':
            seen.add(message['job'])
            if len(seen) == len(hosts):
                control({'type': 'stop', 'job': job} if job else {'type': 'stop'})
    return on_message


def test_stop_at_task_boundary(tmp_path):
    run = run_playbook(tmp_path, STOP_PLAYBOOK, on_message=stop_when_all_sleeping())
    assert run.returncode == 0, run.stdout
    sleeper = run.update_id('1/web1', 'sleeper')
    stopping = run.of('stopping')
    assert stopping == [{'type': 'stopping', 'waitingFor': [sleeper]}]
    at = run.messages.index(stopping[0])
    for host in HOSTS4:
        job = '1/' + host
        # the running task finishes and reports; nothing later starts; the job ends stopped
        assert run.finished(job, 'sleeper')['result'] == 'succeeded'
        assert run.index('finished', job, sleeper) > at
        assert run.started_titles(job) == ['sleeper']
        assert run.finished(job, 'later') is None and run.finished(job, 'last') is None
        assert ended_reason(run, job) == 'stopped'
        assert run.index('jobEnded', job) > run.index('finished', job, sleeper)
        for name in ('later', 'last', 'handler', 'next'):
            assert not os.path.exists(os.path.join(str(tmp_path), '%s-%s' % (name, host))), name
    # a later play after a stop of everything: nothing runs, nothing is planned
    assert [m['job'] for m in run.of('plan')] == ['1/' + h for h in HOSTS4]


def test_stop_one_host(tmp_path):
    run = run_playbook(tmp_path, STOP_PLAYBOOK, on_message=stop_when_all_sleeping('1/web2'))
    assert run.returncode == 0, run.stdout
    sleeper = run.update_id('1/web2', 'sleeper')
    assert run.of('stopping') == [{'type': 'stopping', 'job': '1/web2', 'waitingFor': [sleeper]}]
    assert run.started_titles('1/web2') == ['sleeper']
    assert run.finished('1/web2', 'sleeper')['result'] == 'succeeded'
    assert ended_reason(run, '1/web2') == 'stopped'
    assert not os.path.exists(os.path.join(str(tmp_path), 'later-web2'))
    assert not os.path.exists(os.path.join(str(tmp_path), 'handler-web2'))
    # a stopped host stays stopped in later plays: not planned, nothing runs
    assert sorted(run.plans()) == ['1/web1', '1/web2', '1/web3', '1/web4', '2/web1', '2/web3', '2/web4']
    assert not os.path.exists(os.path.join(str(tmp_path), 'next-web2'))
    for host in ('web1', 'web3', 'web4'):
        assert run.started_titles('1/' + host) == ['sleeper', 'later', 'last']
        assert ended_reason(run, '1/' + host) == 'play ended'
        for name in ('later', 'last', 'handler', 'next'):
            assert os.path.exists(os.path.join(str(tmp_path), '%s-%s' % (name, host))), name


def test_plugin_disables_itself_without_its_descriptor(tmp_path):
    run = run_playbook(tmp_path, '''
        - hosts: web
          gather_facts: false
          tasks:
            - name: one
              ansible.builtin.command: "true"
        ''', hosts=['web1'], with_fds=False)
    assert run.returncode == 0, run.stdout
    assert 'ok=1' in run.stdout and 'ERROR' not in run.stdout and 'installtop' not in run.stdout
