# -*- coding: utf-8 -*-
# installtop's Ansible callback plugin: speaks installtop's driver protocol, version 1
# (Documentation/DRIVER-PROTOCOL.md) so that one `ansible-playbook` run is one installtop
# session driver: every host of a play is a job, every task an update of it.
#
# Standard library only (ansible's own modules aside); Python 3.9+; ansible-core 2.16-2.19.
from __future__ import annotations

DOCUMENTATION = '''
    name: installtop
    type: notification
    short_description: reports a run to installtop (driver protocol 1)
    description:
      - Writes JSON Lines to the file descriptor named by INSTALLTOP_PROGRESS_FD (default 3)
        and reads stop requests from INSTALLTOP_CONTROL_FD (default 4).
      - Disables itself quietly when that descriptor was not handed to ansible-playbook.
    requirements:
      - enable with ANSIBLE_CALLBACKS_ENABLED=installtop
'''

import json
import os
import stat
import sys
import threading

from ansible import constants as C
from ansible.plugins.callback import CallbackBase
from ansible.utils.sentinel import Sentinel

try:
    from ansible.module_utils.parsing.convert_bool import boolean
except ImportError:  # pragma: no cover - every supported ansible-core has it
    def boolean(value, strict=False):
        return str(value).lower() in ('1', 'true', 'yes', 'on', 'y', 't')


PROTOCOL_VERSION = 1
# installtop cuts lines at 16 KiB: a cut line is not JSON and is lost, so every line we write
# stays below this (plans shrink their titles, output lines are cut).
MAX_LINE_BYTES = 16 * 1024 - 256
MAX_OUTPUT_LINES = 200     # per task result (per loop item for loops)
MAX_OUTPUT_CHARS = 2000    # per output line: even all-escaped it stays far below the line limit
# The implicit fact-gathering task is created by PlayIterator *after*
# v2_playbook_on_play_start, with a fresh uuid per serial batch, so no plan sent at play start
# can contain its run-time uuid. It gets this fixed id instead and every run-time
# gather_facts task whose uuid is not in the plan is reported under it.
GATHER_FACTS_ID = 'gather-facts'


def _descriptor(variable, default):
    """The fd named by `variable` (or `default`), or None when it cannot be ours.

    When ansible-playbook was started without that fd, the number is free and ansible itself
    may have opened something there by the time callbacks load (its connection lock file, the
    pipes of its result queue). Writing JSON into those would break the run, so a fd counts
    only if it was inherited: Python opens everything non-inheritable (PEP 446), while a fd a
    parent passes (`pass_fds`, `3>&`) arrives inheritable. Without the variable we also insist
    on a pipe or socket, which is what installtop passes.
    """
    explicit = variable in os.environ
    try:
        fd = int(os.environ.get(variable, default))
    except ValueError:
        return None
    if fd < 0:
        return None
    try:
        mode = os.fstat(fd).st_mode
        if not os.get_inheritable(fd):
            return None
    except OSError:
        return None
    if not explicit and not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return None
    return fd


def _lines(value):
    """A result member (str, list, anything) as a list of text lines."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        out = []
        for item in value:
            out.extend(_lines(item) if isinstance(item, (str, list, tuple)) else [_text(item)])
        return out
    if not isinstance(value, str):
        value = _text(value)
    return value.splitlines()


def _text(value):
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except Exception:
        return str(value)


def _last_line(text):
    for line in reversed(_lines(text)):
        if line.strip():
            return line.strip()
    return None


class _Job(object):
    """One host of one play, as installtop sees it."""

    def __init__(self, key, host, play_number, ids):
        self.key = key
        self.host = host
        self.play_number = play_number
        self.ids = set(ids)
        self.started = set()
        self.finished = set()
        self.in_flight = set()
        self.ended = False
        # After a failure inside a block with `always`, the host still runs those tasks:
        # the ids it waits for before "host failed" (None: not failing).
        self.failing_waits = None
        # A stop was requested: jobEnded "stopped" goes out once nothing is in flight.
        self.stopping = False


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'notification'
    CALLBACK_NAME = 'installtop'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super(CallbackModule, self).__init__(*args, **kwargs)
        # One lock for every write and all state: callbacks come from the main thread and from
        # the strategy's results thread (item results, retries), stop requests from ours.
        self._lock = threading.RLock()
        self._out = None
        self._play_number = 0
        self._play_uuid = None
        self._jobs = {}             # job key -> _Job, of every play so far
        self._current = {}          # host name -> job key in the current play
        self._dead_hosts = set()    # failed or unreachable: Ansible runs nothing more on them
        self._stop_all = False
        self._stopped_hosts = set()
        self._suppressed = set()    # (host, task uuid) skipped because of a stop: not reported
        self._saved_when = {}       # id(task) -> (task, its own `when` before we touched it)

        fd = _descriptor('INSTALLTOP_PROGRESS_FD', 3)
        if fd is None:
            # Running ansible by hand with the plugin enabled must keep working.
            self.disabled = True
            return
        try:
            self._out = os.fdopen(fd, 'w', buffering=1, closefd=False, encoding='utf-8', errors='replace')
        except OSError:
            self.disabled = True
            return
        self._send({'type': 'hello', 'protocol': PROTOCOL_VERSION, 'driver': 'ansible'})

        control = _descriptor('INSTALLTOP_CONTROL_FD', 4)
        if control is not None:
            reader = threading.Thread(target=self._read_control, args=(control,), name='installtop-control')
            reader.daemon = True  # never keeps ansible-playbook alive
            reader.start()

    # ------------------------------------------------------------------ writing

    def _send(self, message):
        with self._lock:
            if self._out is None:
                return
            line = json.dumps(message, ensure_ascii=False, separators=(',', ':'))
            try:
                self._out.write(line + '\n')
                self._out.flush()
            except (OSError, ValueError):
                # installtop went away (EPIPE): stop writing, let the run go on.
                self._out = None

    def _output(self, job, update, result):
        """A result's stdout, stderr and msg as `output` lines of the update, at most 200."""
        if not isinstance(result, dict):
            return
        streams = [('stdout', result.get('stdout')), ('stderr', result.get('stderr'))]
        # A loop's summary msg ("All items completed") says nothing: its items sent theirs.
        if 'results' not in result and 'msg' in result:
            streams.append(('stdout', result.get('msg')))
        sent = 0
        total = sum(len(_lines(value)) for _, value in streams)
        for stream, value in streams:
            for line in _lines(value):
                if sent == MAX_OUTPUT_LINES - 1 and total > MAX_OUTPUT_LINES:
                    self._send({'type': 'output', 'job': job.key, 'update': update, 'stream': 'stdout',
                                'line': '... %d more lines not shown' % (total - sent)})
                    return
                self._send({'type': 'output', 'job': job.key, 'update': update, 'stream': stream,
                            'line': line[:MAX_OUTPUT_CHARS]})
                sent += 1

    # ------------------------------------------------------------------ planning

    def _plan_tasks(self, play):
        """(id, title) of every task the play may run, in order, tags applied."""
        variable_manager = play.get_variable_manager()
        all_vars = variable_manager.get_vars(play=play)
        tasks = []

        def walk(items):
            for item in items or []:
                if hasattr(item, 'block') and hasattr(item, 'rescue'):  # a Block
                    walk(item.block)
                    walk(item.rescue)
                    walk(item.always)
                elif getattr(item, 'action', None) in C._ACTION_META or getattr(item, 'implicit', False):
                    continue  # flush_handlers, noop, end_play...: not work a host does
                else:
                    tasks.append((item._uuid, item.get_name()))

        # play.compile() builds the same blocks PlayIterator builds (copies keep their
        # _uuid), so these uuids are the ones v2_runner_on_start reports. Handlers are in
        # play.handlers, not here: they are not updates.
        for block in play.compile():
            walk([block.filter_tagged_tasks(all_vars)])
        return tasks, all_vars

    def _gathers_facts(self, play, all_vars, host):
        """Whether PlayIterator will run its implicit fact gathering on `host`."""
        gathering = C.DEFAULT_GATHERING
        implied = play.gather_facts is None or boolean(play.gather_facts, strict=False)
        if gathering == 'implicit':
            wanted = implied
        elif gathering == 'explicit':
            wanted = play.gather_facts is not None and boolean(play.gather_facts, strict=False)
        else:  # smart
            wanted = implied and not play.get_variable_manager()._facts_gathered_for_host(host.name)
        if not wanted:
            return False
        # Tags: PlayIterator tags the setup task 'always' unless the play has tags of its
        # own (then it inherits them); filter it the same way it does.
        try:
            from ansible.playbook.block import Block
            from ansible.playbook.task import Task
            setup_block = Block(play=play)
            setup_task = Task(block=setup_block)
            setup_task.action = 'gather_facts'
            setup_task.name = 'Gathering Facts'
            setup_task.args = {}
            if not play.tags:
                setup_task.tags = ['always']
            setup_task.set_loader(play._loader)
            setup_block.block = [setup_task]
            return bool(setup_block.filter_tagged_tasks(all_vars).block)
        except Exception:
            return True

    def _plan_message(self, key, name, updates):
        """The plan line, titles shortened until it fits in one protocol line."""
        for cap in (None, 120, 60, 30, 10, 0):
            listed = []
            for update_id, title in updates:
                entry = {'id': update_id}
                if cap is None or cap > 0:
                    entry['title'] = title if cap is None else title[:cap]
                listed.append(entry)
            message = {'type': 'plan', 'job': key, 'name': name, 'operation': 'install', 'updates': listed}
            if len(json.dumps(message, ensure_ascii=False, separators=(',', ':')).encode('utf-8')) <= MAX_LINE_BYTES:
                break
        else:
            self._display.warning('installtop: the plan of %s (%d tasks) exceeds a protocol line' % (key, len(updates)))
        return message

    def v2_playbook_on_play_start(self, play):
        with self._lock:
            # With `serial` this fires once per batch with the same play (same _uuid, a copy):
            # the plan went out at the first batch, for every host.
            if play._uuid == self._play_uuid:
                return
            self._end_open_jobs('play ended')
            self._play_uuid = play._uuid
            self._play_number += 1
            self._current = {}
            if self._stop_all:
                return  # nothing more will run: no jobs to show
            try:
                tasks, all_vars = self._plan_tasks(play)
                inventory = play.get_variable_manager()._inventory
                # ignore_restrictions: the whole play, not only this serial batch (the batch is
                # an inventory "restriction"); --limit is a "subset", which this still
                # applies (ignore_limits stays False).
                hosts = inventory.get_hosts(play.hosts, ignore_restrictions=True, order=play.order)
            except Exception as error:
                self._display.warning('installtop: cannot plan the play: %s' % error)
                return
            play_name = (play.get_name() or '').strip() or 'play %d' % self._play_number
            for host in hosts:
                if host.name in self._dead_hosts or host.name in self._stopped_hosts:
                    continue  # Ansible skips hosts failed earlier; a stopped host stays stopped
                updates = list(tasks)
                if self._gathers_facts(play, all_vars, host):
                    updates.insert(0, (GATHER_FACTS_ID, 'Gathering Facts'))
                seen = set()
                updates = [u for u in updates if not (u[0] in seen or seen.add(u[0]))]  # a plan's ids are unique
                if not updates:
                    continue  # installtop refuses an empty plan: nothing to show either
                key = '%d/%s' % (self._play_number, host.name)
                self._jobs[key] = _Job(key, host.name, self._play_number, [u[0] for u in updates])
                self._current[host.name] = key
                self._send(self._plan_message(key, '%s \u00b7 %s' % (host.name, play_name), updates))

    # ------------------------------------------------------------------ run-time lookups

    def _job_for(self, host_name):
        key = self._current.get(host_name)
        job = self._jobs.get(key) if key else None
        return job if job is not None and not job.ended else None

    def _update_id(self, job, task):
        if task._uuid in job.ids:
            return task._uuid
        if getattr(task, 'action', None) in C._ACTION_FACT_GATHERING and GATHER_FACTS_ID in job.ids:
            return GATHER_FACTS_ID
        return None  # handlers, meta, tasks of dynamic includes: not in the plan

    @staticmethod
    def _parts(result):
        # CallbackTaskResult (2.19) and TaskResult (earlier) both keep these.
        return result._host, result._task, result._result

    # ------------------------------------------------------------------ stopping

    def _is_stopped(self, host_name):
        return self._stop_all or host_name in self._stopped_hosts

    def _hold(self, task, stopped):
        """Makes `task` not run (stopped=True) or restores its own `when`.

        Setting the task's own `when` to [False] (ANDed with its parents' conditions) makes
        the worker skip it: the run goes on, prints its recap and exits 0. The main thread
        calls this right before each worker forks with the task (v2_runner_on_start), so the
        choice is per host without any templated condition (no template-trust questions in
        2.19), and hosts still waiting for a fork are held too.
        """
        key = id(task)
        if stopped:
            if key not in self._saved_when:
                self._saved_when[key] = (task, getattr(task, '_when', Sentinel))
            task.when = [False]
        elif key in self._saved_when:
            setattr(task, '_when', self._saved_when[key][1])

    def v2_playbook_on_task_start(self, task, is_conditional):
        # The task boundary FLEET.md describes: once everything is stopped, no task runs.
        with self._lock:
            if self._stop_all:
                self._hold(task, True)

    def v2_playbook_on_handler_task_start(self, task):
        with self._lock:
            if self._stop_all:
                self._hold(task, True)

    def _request_stop(self, job_name):
        with self._lock:
            if job_name is None:
                if self._stop_all:
                    return
                self._stop_all = True
                targets = [job for job in self._jobs.values() if not job.ended]
            else:
                job = self._jobs.get(job_name)
                if job is None:  # also accept a bare host name for the current play
                    job = self._job_for(job_name)
                if job is None or job.ended or job.stopping or self._is_stopped(job.host):
                    return
                self._stopped_hosts.add(job.host)
                targets = [job]
            waiting = []
            for job in targets:
                job.stopping = True
                waiting.extend(sorted(job.in_flight))
            message = {'type': 'stopping', 'waitingFor': sorted(set(waiting))}
            if job_name is not None:
                message['job'] = targets[0].key
            self._send(message)
            for job in targets:
                self._end_if_stopped(job)

    def _end_if_stopped(self, job):
        if job.stopping and not job.ended and not job.in_flight:
            self._end(job, 'stopped')

    def _read_control(self, fd):
        try:
            with os.fdopen(fd, 'r', closefd=False, encoding='utf-8', errors='replace') as control:
                for line in control:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        message = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(message, dict) and message.get('type') == 'stop':
                        job = message.get('job')
                        self._request_stop(job if isinstance(job, str) else None)
        except Exception:
            pass  # the control channel is optional; losing it must not break the run

    # ------------------------------------------------------------------ results

    def _end(self, job, reason):
        job.ended = True
        self._send({'type': 'jobEnded', 'job': job.key, 'reason': reason})

    def _end_open_jobs(self, reason):
        for job in self._jobs.values():
            if not job.ended:
                self._end(job, 'host failed' if job.failing_waits is not None else reason)

    def v2_runner_on_start(self, host, task):
        with self._lock:
            stopped = self._is_stopped(host.name)
            # Called in the main thread right before the worker forks with this task.
            if stopped or id(task) in self._saved_when:
                self._hold(task, stopped)
            if stopped:
                self._suppressed.add((host.name, task._uuid))
                return
            job = self._job_for(host.name)
            if job is None:
                return
            update = self._update_id(job, task)
            if update is None or update in job.started:
                return
            job.started.add(update)
            job.in_flight.add(update)
            self._send({'type': 'started', 'job': job.key, 'update': update})

    def _take(self, result):
        """(job, update, result dict) for a reportable result, else None."""
        host, task, res = self._parts(result)
        if (host.name, task._uuid) in self._suppressed:
            self._suppressed.discard((host.name, task._uuid))
            return None
        job = self._job_for(host.name)
        if job is None:
            return None
        update = self._update_id(job, task)
        return job, update, (res if isinstance(res, dict) else {})

    def _finish(self, job, update, message):
        if update is None or update in job.finished:
            return
        line = {'type': 'finished', 'job': job.key, 'update': update}
        line.update(message)
        self._send(line)
        job.finished.add(update)
        job.in_flight.discard(update)
        if job.failing_waits is not None:
            job.failing_waits.discard(update)
            if not job.failing_waits:
                self._end(job, 'host failed')
                return
        self._end_if_stopped(job)

    @staticmethod
    def _wants_reboot(res):
        """A result that says the host needs a reboot.

        Either a module's own `reboot_required: true`, or the stat of the reboot flag file
        (Debian's /run/reboot-required, also reached as /var/run/reboot-required): any stat
        whose path is named `reboot-required` and exists.
        """
        if not isinstance(res, dict):
            return False
        if res.get('reboot_required') is True:
            return True
        st = res.get('stat')
        if isinstance(st, dict) and st.get('exists') is True:
            path = st.get('path')
            if not path:
                path = ((res.get('invocation') or {}).get('module_args') or {}).get('path')
            if isinstance(path, str) and os.path.basename(path.rstrip('/')) == 'reboot-required':
                return True
        return any(CallbackModule._wants_reboot(item) for item in res.get('results') or [] if isinstance(item, dict))

    def _report(self, job, update, res, message):
        if update is None:
            return
        self._output(job, update, res)
        if self._wants_reboot(res):
            self._send({'type': 'reboot', 'job': job.key, 'update': update})
        self._finish(job, update, message)

    def v2_runner_on_ok(self, result):
        with self._lock:
            taken = self._take(result)
            if taken:
                job, update, res = taken
                self._report(job, update, res, {'result': 'succeeded', 'changed': bool(res.get('changed', False))})

    def v2_runner_on_skipped(self, result):
        with self._lock:
            taken = self._take(result)
            if taken:
                job, update, res = taken
                self._report(job, update, res, {'result': 'skipped', 'reason': _text(res.get('skip_reason') or 'skipped')})

    @staticmethod
    def _failure_reason(res):
        msg = res.get('msg')
        if isinstance(msg, str) and msg.strip() and 'results' in res:
            # A loop says "One or more items failed": the first failed item says why.
            for item in res.get('results') or []:
                if isinstance(item, dict) and item.get('failed'):
                    return CallbackModule._failure_reason(item)
        stderr = _last_line(res.get('stderr'))
        if msg == 'non-zero return code' and stderr:
            return stderr  # command/shell: their msg says nothing, the command's last words do
        if msg:
            return _last_line(msg) if not isinstance(msg, str) else msg.strip()
        return stderr or _last_line(res.get('stdout')) or (
            'exit status %s' % res['rc'] if 'rc' in res else 'failed')

    def v2_runner_on_failed(self, result, ignore_errors=False):
        with self._lock:
            host, task, _ = self._parts(result)
            taken = self._take(result)
            if not taken:
                return
            job, update, res = taken
            self._report(job, update, res, {'result': 'failed', 'reason': self._failure_reason(res)})
            if ignore_errors or job.ended:
                return
            # A failure inside a block with `rescue` is rescued: the host goes on. One inside a
            # block with `always` still runs those tasks: the job ends after them.
            rescued, always = self._failure_path(task)
            if rescued:
                return
            self._dead_hosts.add(host.name)
            waits = set(i for i in always if i in job.ids and i not in job.finished)
            if waits:
                job.failing_waits = waits
            else:
                self._end(job, 'host failed')

    @staticmethod
    def _failure_path(task):
        """(rescued, [uuids of `always` tasks the failed host still runs]) for a failed task."""
        always = []

        def flatten(items):
            for item in items or []:
                if hasattr(item, 'block') and hasattr(item, 'rescue'):
                    flatten(item.block)
                    flatten(item.rescue)
                    flatten(item.always)
                else:
                    always.append(item._uuid)

        node = task
        parent = getattr(task, '_parent', None)
        while parent is not None:
            if hasattr(parent, 'block') and hasattr(parent, 'rescue'):
                in_block = any(getattr(t, '_uuid', None) == node._uuid for t in parent.block or [])
                in_always = any(getattr(t, '_uuid', None) == node._uuid for t in parent.always or [])
                if in_block and parent.rescue:
                    return True, []
                if not in_always:
                    flatten(parent.always)
            node = parent
            parent = getattr(parent, '_parent', None)
        return False, always

    def v2_runner_on_unreachable(self, result):
        with self._lock:
            host, task, _ = self._parts(result)
            taken = self._take(result)
            if not taken:
                return
            job, update, res = taken
            msg = _last_line(res.get('msg')) or 'unreachable'
            self._report(job, update, res, {'result': 'failed', 'reason': 'unreachable: %s' % msg})
            if job.ended or getattr(task, 'ignore_unreachable', False):
                return
            self._dead_hosts.add(host.name)
            self._end(job, 'host unreachable')

    # Loop items are not updates: their lines go to the task's update as they come.
    def _item(self, result):
        with self._lock:
            host, task, res = self._parts(result)
            if (host.name, task._uuid) in self._suppressed:
                return
            job = self._job_for(host.name)
            update = self._update_id(job, task) if job else None
            if update is not None and isinstance(res, dict):
                self._output(job, update, res)

    def v2_runner_item_on_ok(self, result):
        self._item(result)

    def v2_runner_item_on_failed(self, result):
        self._item(result)

    def v2_runner_retry(self, result):
        with self._lock:
            host, task, res = self._parts(result)
            job = self._job_for(host.name)
            update = self._update_id(job, task) if job else None
            if update is not None and isinstance(res, dict):
                left = res.get('retries', 0) - res.get('attempts', 0)
                self._send({'type': 'output', 'job': job.key, 'update': update, 'stream': 'stdout',
                            'line': 'retrying (%d retries left)' % left})

    def v2_playbook_on_stats(self, stats):
        # Fires once per playbook file: every job not ended yet ends with its play; what it
        # did not reach is then "not started: play ended" in installtop.
        with self._lock:
            self._end_open_jobs('play ended')
            self._current = {}
            self._play_uuid = None
