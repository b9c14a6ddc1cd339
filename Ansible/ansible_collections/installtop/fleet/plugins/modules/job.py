#!/usr/bin/python
# -*- coding: utf-8 -*-
# installtop's Ansible module: one package job on the host, through the installtop CLI there.
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: job
short_description: Run an apt or dnf package job through the host's installtop engine
description:
  - Runs C(installtop apt ...) or C(installtop dnf ...) on the host with C(--json) and C(--yes),
    waits for the job's end and returns its run number and per-package results (name, versions,
    installtop's one-word outcome and WUA result code).
  - Without O(confirm), C(installtop apt) hands the job to the machine's engine (C(installtop serve))
    when one answers there, runs as the same user, records into a history and acts on the same
    apt root; the board and C(installtop attach) then show it. Otherwise installtop runs it itself.
  - With O(confirm), the job is armed (commit-confirmed) by the C(installtop) command the module
    runs (health checks before and after, then a deadline). The module runs its own O(health_check)
    on the host, then keeps the run with C(installtop confirm --run RUN); when that check fails it
    reverts the run at once (C(installtop apt revert RUN)) and fails. The command line runs an armed
    job in its own process, not in the engine; the run is recorded in the
    engine's history (O(history_db), by default the one C(installtop history) shows) so that the
    engine reverts it at its deadline should the module's connection die.
  - In check mode nothing runs; installtop prints the plan (off a terminal without C(--yes) it runs
    nothing) and the module returns it.
  - installtop has no security-only selection today; O(state=upgraded) upgrades every package apt
    or dnf would.
version_added: "1.0.0"
author:
  - installtop's authors
options:
  tool:
    description: The package tool whose transaction the job is.
    type: str
    choices: [apt, dnf]
    default: apt
  state:
    description:
      - V(upgraded) upgrades every package that can be (C(installtop apt upgrade)); for dnf, only
        O(packages) when they are named.
      - V(full_upgraded) is apt's full-upgrade (packages may be installed or removed).
      - V(present) installs O(packages) (upgrading them to their candidate when installed).
      - V(absent) removes O(packages).
    type: str
    choices: [upgraded, full_upgraded, present, absent]
    default: upgraded
  packages:
    description: The packages, for V(present) and V(absent) (and dnf's V(upgraded)).
    type: list
    elements: str
  confirm:
    description:
      - Arm the job for this long (V(90s), V(5m), V(1h30m)); installtop undoes its run from the
        versions it kept unless it is confirmed in time. The module confirms it after O(health_check).
    type: str
  checks:
    description: With O(confirm), installtop's own health checks (C(--check)), shell commands that must succeed before and after the job.
    type: list
    elements: str
    default: []
  checks_dir:
    description: With O(confirm), a folder of executable checks (C(--checks-dir); installtop's default is C(/etc/installtop/confirm.d)).
    type: path
  revert_on_regression:
    description: With O(confirm), revert at once when one of installtop's checks regressed (C(--revert-on-regression)).
    type: bool
    default: false
  health_check:
    description:
      - With O(confirm), a shell command the module runs on the host once the run is armed; exit 0
        confirms the run, anything else reverts it at once and fails the task.
      - Without it the module confirms the run as soon as it is armed with no regression.
    type: str
  health_check_timeout:
    description: Seconds the O(health_check) may take before it counts as failed.
    type: int
    default: 300
  apt_config:
    description: apt's configuration file (C(--apt-config)), which may move apt and dpkg into another root.
    type: path
  history_db:
    description:
      - The history to record into (C(--history-db)). Without O(confirm) the machine's engine runs
        the job only when this is its history (or this is not set).
      - With O(confirm), the engine's history, so that the engine reverts the run at its deadline;
        by default the machine's engine's, as C(installtop history) finds it (else the user's own).
    type: path
  socket:
    description:
      - The engine's socket when it is not the machine's (C(/run/installtop.sock) for root). Passed
        as C(INSTALLTOP_MACHINE_SOCKET) (and C(XDG_RUNTIME_DIR) unset), since C(installtop apt) takes no C(--socket).
    type: path
  installtop:
    description: The installtop program on the host; found on C(PATH) when not given.
    type: path
notes:
  - Supports check mode. The job runs with C(--yes), so its plan is the one apt or dnf resolves as it runs.
  - The Debian package does not ship this collection; install it from the repository's C(Ansible/) folder.
requirements:
  - installtop on the managed host.
"""

EXAMPLES = r"""
- name: Upgrade, armed for 10 minutes, kept once the web page answers
  installtop.fleet.job:
    state: upgraded
    confirm: 10m
    health_check: curl -fsS http://localhost/health
  register: patch

- name: Install two packages
  installtop.fleet.job:
    state: present
    packages: [curl, openssl]

- name: dnf upgrade of one package
  installtop.fleet.job:
    tool: dnf
    packages: [openssl]
"""

RETURN = r"""
run:
  description: The job's run in installtop's history (C(installtop history --jobs)); null when nothing ran or no history was kept.
  returned: always
  type: int
job:
  description: The job's number in the engine or command that ran it.
  returned: when a job ran
  type: int
result:
  description: The job's result in installtop's word (V(succeeded), V(succeededWithErrors), V(failed), V(aborted)); null when nothing ran.
  returned: always
  type: str
packages:
  description: One entry per package of the job (of the plan in check mode).
  returned: always
  type: list
  elements: dict
  contains:
    name:
      description: The package.
      type: str
    action:
      description: What the job does to it (V(install), V(upgrade), V(reinstall), V(remove) or V(purge)).
      type: str
    from:
      description: The version before (null for an install).
      type: str
    to:
      description: The version after (null for a removal).
      type: str
    outcome:
      description: installtop's one word for its end (V(succeeded), V(failed), V(aborted) ...); null in check mode.
      type: str
    result_code:
      description: WUA's result code (2 succeeded, 3 succeeded with errors, 4 failed, 5 aborted).
      type: int
    hresult:
      description: WUA's HRESULT (V(0x00000000), V(0x8024200B) ...).
      type: str
    reason:
      description: Why it ended so, in installtop's (or apt's or dpkg's) words; null when there is nothing to say.
      type: str
reboot_required:
  description: Whether the host needs a reboot after the job.
  returned: always
  type: bool
confirmed:
  description: With O(confirm), whether the run was kept; its window's last state is in RV(window).
  returned: always
  type: bool
window:
  description: The commit-confirmed window's last event (V(run.confirmed), V(run.reverted) ...), as installtop printed it.
  returned: when armed
  type: dict
exit_status:
  description: installtop's exit status (0 succeeded, 1 failed, 4 reboot required, 7 reverted ...).
  returned: always
  type: int
stderr_lines:
  description: What installtop said on stderr.
  returned: always
  type: list
  elements: str
"""

import json
import os
import re
import subprocess
import threading
import time

try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the pure parts below are tested without ansible-core (Tests/AnsibleModulePytest)
    AnsibleModule = None


# MARK: - The command line

# The options, as DOCUMENTATION says them (Tests/AnsibleModulePytest checks that the two agree).
ARGUMENT_SPEC = dict(
    tool=dict(type='str', choices=['apt', 'dnf'], default='apt'),
    state=dict(type='str', choices=['upgraded', 'full_upgraded', 'present', 'absent'], default='upgraded'),
    packages=dict(type='list', elements='str'),
    confirm=dict(type='str'),
    checks=dict(type='list', elements='str', default=[]),
    checks_dir=dict(type='path'),
    revert_on_regression=dict(type='bool', default=False),
    health_check=dict(type='str'),
    health_check_timeout=dict(type='int', default=300),
    apt_config=dict(type='path'),
    history_db=dict(type='path'),
    socket=dict(type='path'),
    installtop=dict(type='path'),
)


def job_command(params, binary, check_mode=False):
    """The installtop command line of the job `params` asks for (the module's options)."""
    tool = params.get('tool') or 'apt'
    state = params.get('state') or 'upgraded'
    packages = list(params.get('packages') or [])
    if state == 'upgraded':
        if packages and tool == 'apt':
            raise ValueError("apt's upgrade takes no package list: use state=present to upgrade named packages")
        argv = [binary, tool, 'upgrade'] + packages
    elif state == 'full_upgraded':
        if tool != 'apt':
            raise ValueError('full_upgraded is apt\'s full-upgrade; dnf has none (state=upgraded)')
        if packages:
            raise ValueError('full_upgraded takes no package list')
        argv = [binary, 'apt', 'full-upgrade']
    elif state in ('present', 'absent'):
        if not packages:
            raise ValueError('state=%s needs packages' % state)
        argv = [binary, tool, 'install' if state == 'present' else 'remove'] + packages
    else:
        raise ValueError('unknown state %r' % state)
    if params.get('apt_config'):
        if tool != 'apt':
            raise ValueError('apt_config is for apt jobs')
        argv += ['--apt-config', params['apt_config']]
    if params.get('history_db'):
        argv += ['--history-db', params['history_db']]
    if check_mode:
        # Off a terminal without --yes installtop prints the plan and runs nothing.
        return argv + ['--plain']
    argv += ['--yes', '--json']
    if params.get('confirm'):
        argv += ['--confirm', params['confirm']]
        for check in params.get('checks') or []:
            argv += ['--check', check]
        if params.get('checks_dir'):
            argv += ['--checks-dir', params['checks_dir']]
        if params.get('revert_on_regression'):
            argv.append('--revert-on-regression')
    elif params.get('checks') or params.get('checks_dir') or params.get('revert_on_regression') or params.get('health_check'):
        raise ValueError('checks, checks_dir, revert_on_regression and health_check go with confirm')
    return argv


def command_environment(params, environment):
    """The environment installtop runs in: the engine's socket as `socket` names it."""
    environment = dict(environment)
    environment['NO_COLOR'] = '1'
    if params.get('socket'):
        environment['INSTALLTOP_MACHINE_SOCKET'] = params['socket']
        environment.pop('XDG_RUNTIME_DIR', None)
    return environment


def confirm_command(binary, run, history_db=None):
    """`installtop confirm --run RUN`: keeps an armed run."""
    return [binary, 'confirm', '--run', str(run)] + (['--history-db', history_db] if history_db else [])


def revert_command(binary, tool, run, history_db=None):
    """`installtop apt revert RUN`: undoes an armed run now."""
    return [binary, tool, 'revert', str(run), '--yes', '--plain'] + (['--history-db', history_db] if history_db else [])


def history_command(binary, history_db=None, limit=20):
    """`installtop history --jobs --json`: the newest job runs, one object a line."""
    return [binary, 'history', '--jobs', '--json', '--limit', str(limit)] + (['--history-db', history_db] if history_db else [])


# MARK: - Reading installtop's output

_ENGINE_HISTORY = re.compile(r"^installtop: showing the machine's engine's history, (?P<path>/.*?) \(installtop apt records its jobs there")


def engine_history(stderr_text):
    """The history of the machine's engine, as `installtop history` names it on stderr when it
    shows that one instead of the user's own; None when it shows the user's own."""
    for line in stderr_text.splitlines():
        match = _ENGINE_HISTORY.match(line)
        if match:
            return match.group('path')
    return None


_TITLE = re.compile(r'^(?P<name>\S+)(?: (?P<old>\S+) \u2192 (?P<new>\S+)| (?P<version>\S+))?(?: \((?P<action>reinstall|remove|purge)\))?$')


def parse_title(title):
    """A package update's title (`openssl 3.0.14 → 3.0.15`, `curl 7.88.1`, `telnet 0.17 (remove)`)
    as name, action and versions."""
    match = _TITLE.match(title.strip())
    if not match:
        return {'name': title.strip(), 'action': None, 'from': None, 'to': None}
    name, old, new, version, action = match.group('name', 'old', 'new', 'version', 'action')
    if old is not None:
        return {'name': name, 'action': 'upgrade', 'from': old, 'to': new}
    if action in ('remove', 'purge'):
        return {'name': name, 'action': action, 'from': version, 'to': None}
    if action == 'reinstall':
        return {'name': name, 'action': 'reinstall', 'from': version, 'to': version}
    return {'name': name, 'action': 'install', 'from': None, 'to': version}


# The headings of installtop's plans (apt's shape, then dnf's) and the action each names.
_PLAN_GROUPS = {
    'The following packages will be INSTALLED:': 'install', 'The following packages will be upgraded:': 'upgrade',
    'The following packages will be DOWNGRADED:': 'downgrade', 'The following packages will be reinstalled:': 'reinstall',
    'The following packages will be REMOVED:': 'remove',
    'Installing:': 'install', 'Upgrading:': 'upgrade', 'Downgrading:': 'downgrade', 'Reinstalling:': 'reinstall',
    'Removing:': 'remove', 'Obsoleting (removed):': 'obsolete',
}

# What follows a package's title in a plan: apt's Essential mark, dnf's architecture and
# repository, and dnf's note on a dependency no longer needed.
_PLAN_SUFFIX = re.compile(r'( \[essential\]| \[[^\]]*\]( \(no longer needed\))?)$')


def parse_plan(text):
    """installtop's plan as it prints it off a terminal without --yes (apt's shape: `The following
    packages will be upgraded:` then `  NAME OLD → NEW` lines; dnf's: `Upgrading:` then
    `  NAME OLD → NEW [ARCH, REPO]`; then the summary) as packages and the summary line; nothing
    to do is no package."""
    packages = []
    summary = None
    action = None
    for line in text.splitlines():
        if line in _PLAN_GROUPS:
            action = _PLAN_GROUPS[line]
            continue
        if line.startswith('  '):
            title = _PLAN_SUFFIX.sub('', line.strip())
            if action == 'obsolete':
                # `lab-old 1.0-1 (obsoleted by lab-new)`: removed at that version.
                entry = parse_title(re.sub(r' \(obsoleted[^)]*\)$', '', title))
                entry.update({'from': entry['to'], 'to': None})
            else:
                entry = parse_title(title)
            if action is not None and action != 'upgrade':
                entry['action'] = action
            entry.update({'outcome': None, 'result_code': None, 'hresult': None, 'reason': None})
            packages.append(entry)
        elif line.strip() and not line.startswith('WARNING: '):
            summary = line.strip()
    return packages, summary


def read_events(lines):
    """installtop's JSON Lines (Documentation/JSON-EVENTS.md) folded into what the module returns:
    the job's number, result and reboot flag, each update's title and end, and the commit-confirmed
    window's events. Lines that are not JSON are skipped."""
    state = {'job': None, 'result': None, 'result_code': None, 'reboot_required': False, 'updates': {},
             'run': None, 'window': None, 'armed': None}
    for line in lines:
        line = line.strip()
        if not line.startswith('{'):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        name = event.get('event')
        if name == 'job.queued':
            state['job'] = event.get('job')
            for update in event.get('updates') or []:
                state['updates'][update.get('index')] = {'id': update.get('id'), 'title': update.get('title') or update.get('id')}
        elif name == 'update.started' and event.get('added'):
            added = event['added']
            state['updates'][added.get('index')] = {'id': added.get('id'), 'title': added.get('title') or added.get('id')}
        elif name == 'update.completed':
            update = state['updates'].setdefault(event.get('index'), {'id': event.get('id'), 'title': event.get('id')})
            update.update({'outcome': event.get('result'), 'result_code': event.get('resultCode'),
                           'hresult': event.get('hResult'), 'reason': event.get('reason'),
                           'reboot_required': bool(event.get('rebootRequired'))})
        elif name == 'job.completed':
            state['job'] = event.get('job', state['job'])
            state['result'] = event.get('result')
            state['result_code'] = event.get('resultCode')
            state['reboot_required'] = bool(event.get('rebootRequired')) or state['reboot_required']
        elif name in ('run.armed', 'run.deadline'):
            state['run'] = event.get('run')
            state['armed'] = event
        elif name in ('run.confirmed', 'run.reverted', 'run.expired'):
            state['run'] = event.get('run', state['run'])
            state['window'] = event
    return state


def package_results(events, run=None):
    """One entry per package: versions from the history's run (`installtop history --jobs --json`)
    when there is one, else from the update's title; outcome and WUA codes from the events."""
    ended = {}
    order = []
    for index in sorted(k for k in events['updates'] if k is not None):
        update = events['updates'][index]
        entry = parse_title(update.get('title') or update.get('id') or '')
        entry.update({'outcome': update.get('outcome'), 'result_code': update.get('result_code'),
                      'hresult': update.get('hresult'), 'reason': update.get('reason')})
        ended[entry['name']] = entry
        order.append(entry['name'])
    for package in (run or {}).get('packages') or []:
        name = package.get('name')
        entry = ended.get(name)
        if entry is None:
            entry = {'name': name, 'outcome': package.get('result'), 'result_code': None, 'hresult': None, 'reason': None}
            ended[name] = entry
            order.append(name)
        entry.update({'action': package.get('action'), 'from': package.get('oldVersion'), 'to': package.get('newVersion')})
        if entry.get('outcome') is None:
            entry['outcome'] = package.get('result')
    return [ended[name] for name in order]


def find_run(history_lines, run=None, tool='apt', since=None, names=None):
    """The job's run among `installtop history --jobs --json`'s lines (newest first): run `run`
    when it is known, else the newest of `tool` that installtop ran (not observed), that
    started at or after `since` (RFC 3339, this host's clock) and, when `names` are given,
    whose packages are those."""
    for line in history_lines:
        line = line.strip()
        if not line.startswith('{'):
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if run is not None:
            if entry.get('run') == run:
                return entry
            continue
        if entry.get('kind') != tool or entry.get('observed'):
            continue
        if since is not None and (entry.get('startedAt') or '') < since:
            continue
        if names is not None and sorted(p.get('name') for p in entry.get('packages') or []) != sorted(names):
            continue
        return entry
    return None


def changed_anything(packages):
    """Whether the job changed a package: one ended succeeded or succeeded with errors."""
    return any(p.get('outcome') in ('succeeded', 'succeededWithErrors') for p in packages)


# installtop's lines on stderr that say how a job runs, not why it failed.
_PROGRESS_LINES = re.compile(r"^installtop: (.* runs in the machine's engine .*|downloading .*|.*: health before the job: .*)$")


def failure_message(status, stderr_lines, packages):
    """installtop's own words for a job that did not succeed: each failed package's reason (apt's
    or dpkg's line), then what installtop said on stderr (less its progress lines)."""
    failed = ['%s: %s' % (p['name'], p.get('reason') or p.get('outcome'))
              for p in packages if p.get('outcome') not in (None, 'succeeded', 'succeededWithErrors')]
    said = [line for line in stderr_lines if line.startswith('installtop:') and not _PROGRESS_LINES.match(line)]
    parts = failed + said[-4:]
    return '; '.join(parts) if parts else 'installtop exited %d' % status


def keep_decision(regressions, health):
    """Whether an armed run is kept: `('confirm', None)`, or `('failed', why)` when one of
    installtop's checks regressed (`run.armed`'s `regressions`) or the module's health check
    (`{'command', 'rc', 'output'}`, rc None when it timed out) failed."""
    if regressions:
        return ('failed', "installtop's checks regressed: %s" % '; '.join(
            '%s: %s -> %s' % (r.get('check'), r.get('before'), r.get('after')) for r in regressions))
    if health is not None and health.get('rc') != 0:
        said = (health.get('output') or '').strip()[-2000:]
        return ('failed', 'the health check `%s` %s%s' % (
            health.get('command'), 'timed out' if health.get('rc') is None else 'failed (exit %d)' % health['rc'],
            ': ' + said if said else ''))
    return ('confirm', None)


def not_kept_message(run, why, stderr_lines):
    """A run not kept: why, then how installtop said it ended (its last line)."""
    said = [line for line in stderr_lines if line.startswith('installtop:')]
    return 'run %s not kept: %s' % (run, why) + ('; ' + said[-1] if said else '')


# MARK: - On the host

def _rfc3339_now():
    """Two seconds ago, as the history writes its times (RFC 3339, UTC, milliseconds)."""
    return time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(time.time() - 2)) + '.000Z'


def _history_run(module, binary, history_db, events, tool, since, environment):
    """The job's run in the history: by its number when the events said it (an armed run's),
    else the newest of the tool since the module started, with the job's packages."""
    rc, out, _ = module.run_command(history_command(binary, history_db), environ_update=environment)
    if rc != 0:
        return None
    names = [parse_title(u.get('title') or u.get('id') or '')['name'] for u in events['updates'].values()]
    return find_run(out.splitlines(), run=events['run'], tool=tool, since=since, names=names or None)


def _shell(command, timeout):
    try:
        done = subprocess.run(['/bin/sh', '-c', command], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
        return done.returncode, done.stdout.decode('utf-8', 'replace')
    except subprocess.TimeoutExpired as expired:
        return None, (expired.output or b'').decode('utf-8', 'replace') + '\n(timed out after %ds)' % timeout


def _plan_only(module, argv, environment):
    """Check mode: installtop's plan, nothing run."""
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    err = done.stderr.decode('utf-8', 'replace').splitlines()
    packages, summary = parse_plan(done.stdout.decode('utf-8', 'replace'))
    # Exit 1 with "not run: confirm with --yes" is the plan shown; 0 is nothing to do.
    if done.returncode not in (0, 1) or (done.returncode == 1 and not packages):
        module.fail_json(msg=failure_message(done.returncode, err, []), exit_status=done.returncode, stderr_lines=err)
    module.exit_json(changed=bool(packages), packages=packages, plan=summary, run=None, result=None,
                     reboot_required=False, confirmed=False, exit_status=done.returncode, stderr_lines=err)


def _keep_or_revert(module, binary, params, armed, environment):
    """Once installtop said the run is armed (`run.armed`): the health check, then the run kept
    (`installtop confirm --run`) or reverted now. Returns the decision and the check's outcome."""
    history_db = params.get('history_db')
    run = armed['run']
    regressions = armed.get('regressions') or []
    health = None
    if params.get('health_check') and not regressions:
        code, output = _shell(params['health_check'], params['health_check_timeout'])
        health = {'command': params['health_check'], 'rc': code, 'output': output}
    decided = keep_decision(regressions, health)
    if decided[0] == 'confirm':
        rc, out, err = module.run_command(confirm_command(binary, run, history_db), environ_update=environment)
        if rc != 0:
            decided = ('failed', 'installtop confirm refused: %s' % (err or out).strip())
    # Not kept: reverted now rather than at the deadline (installtop reverts a regression by
    # itself with revert_on_regression); the waiting command sees the revert and ends.
    if decided[0] == 'failed' and not (regressions and params.get('revert_on_regression')):
        module.run_command(revert_command(binary, params['tool'], run, history_db), environ_update=environment)
    return decided, health


def _run_and_follow(module, binary, params, argv, environment):
    """Runs the job, reading its JSON lines as they come (an armed run is kept or reverted as
    soon as it is armed); returns the lines, installtop's stderr lines, its exit status, the
    keep decision and the health check's outcome."""
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    stderr_chunks = []
    reader = threading.Thread(target=lambda: stderr_chunks.append(process.stderr.read()))
    reader.daemon = True
    reader.start()
    lines = []
    decided = health = None
    for raw in iter(process.stdout.readline, b''):
        line = raw.decode('utf-8', 'replace')
        lines.append(line)
        if decided is None and params.get('confirm'):
            armed = read_events([line])['armed']
            if armed is not None:
                decided, health = _keep_or_revert(module, binary, params, armed, environment)
    status = process.wait()
    reader.join()
    return lines, b''.join(stderr_chunks).decode('utf-8', 'replace').splitlines(), status, decided, health


def run_job(module):
    params = module.params
    binary = params.get('installtop') or module.get_bin_path('installtop', required=True)
    environment = command_environment(params, os.environ)
    tool = params['tool']
    if params.get('confirm') and not params.get('history_db') and not module.check_mode:
        # The armed job runs in this command's process: recorded where the engine reads its
        # windows, the engine reverts it at its deadline should this module's link die.
        rc, _, err = module.run_command(history_command(binary, None, limit=1), environ_update=environment)
        params['history_db'] = engine_history(err) if rc == 0 else None
    try:
        argv = job_command(params, binary, check_mode=module.check_mode)
    except ValueError as refused:
        module.fail_json(msg=str(refused))
    if module.check_mode:
        _plan_only(module, argv, environment)

    since = _rfc3339_now()
    lines, stderr_lines, status, decided, health = _run_and_follow(module, binary, params, argv, environment)
    events = read_events(lines)
    history_run = _history_run(module, binary, params.get('history_db'), events, tool, since, environment) \
        if events['job'] is not None else None
    packages = package_results(events, history_run)
    run = events['run'] if events['run'] is not None else (history_run or {}).get('run')
    window = events['window']
    result = dict(changed=changed_anything(packages), run=run, job=events['job'], result=events['result'],
                  packages=packages, reboot_required=events['reboot_required'] or status == 4,
                  confirmed=bool(window and window.get('event') == 'run.confirmed'), exit_status=status,
                  stderr_lines=stderr_lines)
    if params.get('confirm'):
        result['window'] = window or events['armed']
        result['health_check'] = health
    if events['job'] is None and status == 0:
        # Nothing to do: installtop's line says so ("Nothing to upgrade: …").
        result['msg'] = ' '.join(line.strip() for line in lines if not line.startswith('{')) or 'nothing to do'
        module.exit_json(**result)
    if decided is not None and decided[0] == 'failed':
        module.fail_json(msg=not_kept_message(run, decided[1], stderr_lines), **result)
    if status not in (0, 4):
        module.fail_json(msg=failure_message(status, stderr_lines, packages), **result)
    module.exit_json(**result)


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        required_if=[('state', 'present', ('packages',)), ('state', 'absent', ('packages',))],
        required_by={'health_check': 'confirm', 'checks_dir': 'confirm'},
        supports_check_mode=True,
    )
    run_job(module)


if __name__ == '__main__':
    main()
