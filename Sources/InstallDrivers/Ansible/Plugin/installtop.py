# installtop's Ansible callback plugin: reports a playbook run to installtop in its driver
# protocol, version 1 (Documentation/DRIVER-PROTOCOL.md), so that every host of a play is a job
# and every task an update, live, and so that installtop can stop the run at a task boundary.
#
# installtop writes this file to a private folder and enables it with ANSIBLE_CALLBACK_PLUGINS
# and ANSIBLE_CALLBACKS_ENABLED, beside the operator's own callbacks. It writes JSON Lines to the
# descriptor INSTALLTOP_PROGRESS_FD (3) and reads stop requests from INSTALLTOP_CONTROL_FD (4).
# Without those variables (ansible run by hand with the plugin enabled) it does nothing.
from __future__ import annotations

DOCUMENTATION = '''
name: installtop
type: notification
short_description: reports a run to installtop (hosts as jobs, tasks as updates) and stops it at a task boundary
description:
  - Speaks installtop's driver protocol, version 1, on the descriptors installtop passes.
'''

import fnmatch
import json
import os
import threading

from ansible import constants as C
from ansible import context
from ansible.playbook.block import Block
from ansible.playbook.handler import Handler
from ansible.plugins.callback import CallbackBase

try:
    # ansible-core 2.19 templates only conditionals it trusts; ours is built here.
    from ansible._internal._datatag._tags import TrustedAsTemplate

    def _trusted(expression):
        return TrustedAsTemplate().tag(expression)
except ImportError:  # older ansible-core trusts every string
    def _trusted(expression):
        return expression

PROTOCOL = 1
# Stands for the uuid of the play's own fact gathering: its task is made by the play iterator
# at run time, so its uuid is not known when the play starts.
GATHERING_UUID = 'gathering-facts'
# Stands for a play's handlers: one update, planned when the play may run handlers, that runs
# the handlers notified on a host like an include runs its tasks (a failing one fails it and the
# host), and is skipped when none was notified. A play may run handlers when it or its roles
# have some, or when a task includes a role or a tasks file at run time: the handlers of a role
# an include brings join the play then, after its plan was made.
HANDLERS_UUID = 'handlers'
OUTPUT_LINES_PER_RESULT = 200
OUTPUT_LINE_LENGTH = 2000
STAT_ACTIONS = ('stat', 'ansible.builtin.stat', 'ansible.legacy.stat')
# Dynamic includes: the tasks they bring are not known when the plan is made (rule 22), so the
# include task stands for them: it runs until the host's next planned task starts (or its job
# ends), shows each included task as its status and in its log, and fails when one fails.
INCLUDE_ACTIONS = C._ACTION_ALL_INCLUDE_ROLE_TASKS
REBOOT_MARKER = '/run/reboot-required'
# The meta actions that end a host's or the play's work without a result for what they jump over.
END_ACTIONS = {'end_host': 'meta: end_host ended this host', 'end_play': 'meta: end_play ended the play',
               'end_batch': 'meta: end_batch ended the batch'}
# The meta action that takes back the failures of every host of the batch: a failed host it
# reaches goes on (later in the play when it is still running its always sections, in any case
# in later plays), and Ansible's exit status no longer counts it.
CLEAR_ACTION = 'clear_host_errors'


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'notification'
    CALLBACK_NAME = 'installtop'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Some callbacks come from the results thread, the stop requests from our reader.
        self._lock = threading.RLock()
        # Only the descriptors installtop names: any other open descriptor is ansible's own.
        self._out = self._open(os.environ.get('INSTALLTOP_PROGRESS_FD'), 'w')
        self._plays_in_book = 1
        self._play_number = 0
        self._planned_plays = set()
        self._job_of_host = {}        # host name -> job key, for the current play
        self._id_of_task = {}         # task uuid -> update id, for the current play
        self._plan = {}               # job key -> set of update ids
        self._running = {}            # job key -> set of update ids started and not finished
        self._finished = {}           # job key -> set of update ids finished
        self._ended = set()           # job keys ended
        self._includes = {}           # (job key, is handlers) -> what runs for it: {'id': update id, 'changed': bool}
        self._handlers_id = None      # the update id standing for the current play's handlers
        self._may_notify = set()      # job keys with a task result that notifies handlers, not yet flushed
        self._notified = {}           # job key -> uuids of the handlers notified to run and not yet run
        self._failed_hosts = set()    # hosts that failed or were unreachable (out of later plays)
        # The current play's tasks in the order every host runs them, metas included: dicts of
        # 'uuid', 'id' (None for a meta), 'meta' (its action), 'rescue' (in a rescue section).
        self._order = []
        self._position = {}           # update id -> index in _order
        self._includes_in_play = False  # the current play includes roles or tasks at run time
        self._play = None
        self._play_failed = False     # a host failed in the current play (it may have stopped it)
        self._failed_in_play = set()  # names of the hosts that failed in the current play and were not cleared
        self._batched = set()         # names of the hosts of the current play's batches so far
        self._ran_once = {}           # update id -> the host a run_once task ran on
        self._metas_seen = set()      # uuids of the play's end_* metas that Ansible came to
        self._metas_skipped = set()   # (host name, meta uuid): the meta did not act on that host
        self._rescued = {}            # job key -> position of its last rescued failure
        self._failing = {}            # job key -> why it ends once its always sections ran (a failed host)
        # A failure that a meta clear_host_errors later in the play may take back: its `finished`
        # waits until the meta acts (cleared) or nothing can clear it any more (failed). Job key
        # -> {'message': its finished, 'ends': the job ends when it stands (no always section,
        # no forced handlers to wait for), 'why': the host's end}.
        self._uncleared = {}
        self._clearing = None         # uuid of the clear_host_errors meta Ansible began last
        self._clearing_skipped = False  # ... and told it skipped (its condition was false)
        self._cleared = {}            # job key -> position of its failure a clear_host_errors took back
        # --start-at-task: the tasks before the first that matches never run, in any play.
        self._start_at = (context.CLIARGS or {}).get('start_at_task')
        self._before_start = set()    # update ids of the current play before the start task
        # Ansible tells of a task's start as it hands the task to a free worker, which can be
        # before its results thread has read the result of the task that worker ran before:
        # a start that would make more tasks in flight than forks waits for that result.
        self._forks = int((context.CLIARGS or {}).get('forks') or C.DEFAULT_FORKS)
        self._in_flight = set()       # (host name, task uuid) started and whose result is not read
        self._held = []               # (host, task) starts waiting for a result that frees a fork
        self._item_failures = {}      # (job key, update id) -> the first failing item of a loop, told
        self._async = {}              # (job key, update id) of a running async task -> (most polls, polls so far)
        self._stop_all = False
        self._stop_hosts = set()      # host names asked to stop
        self._stopped_tasks = set()   # task uuids made not to run for every host
        if self._out is None:
            self.disabled = True
            return
        self._send({'type': 'hello', 'protocol': PROTOCOL, 'driver': 'ansible'})
        control = self._open(os.environ.get('INSTALLTOP_CONTROL_FD'), 'r')
        if control is not None:
            threading.Thread(target=self._read_control, args=(control,), name='installtop-control', daemon=True).start()

    # MARK: - Plumbing

    @staticmethod
    def _open(fd, mode):
        try:
            number = int(fd)
            os.fstat(number)
            return os.fdopen(number, mode, buffering=1, encoding='utf-8', errors='replace', closefd=False)
        except (TypeError, OSError, ValueError):
            return None

    def _send(self, message):
        with self._lock:
            try:
                self._out.write(json.dumps(message, ensure_ascii=False) + '\n')
            except (OSError, ValueError):
                # installtop is gone: the run goes on as ansible alone.
                self.disabled = True

    def _read_control(self, control):
        for line in control:
            try:
                request = json.loads(line)
            except ValueError:
                continue
            if isinstance(request, dict) and request.get('type') == 'stop':
                self._stop(request.get('job'))

    # MARK: - Plans

    def v2_playbook_on_start(self, playbook):
        self._plays_in_book = max(1, len(playbook.get_plays()))

    def v2_playbook_on_play_start(self, play):
        with self._lock:
            self._settle_clearing()
            # With `serial` this comes once per batch, for the same play: the hosts of the batch
            # before, their tasks and handlers run, are done.
            if play._uuid in self._planned_plays:
                for key in list(self._job_of_host.values()):
                    if key not in self._ended and self._finished.get(key):
                        self._end(key, 'done')
                # end_batch and end_play act per batch: whether one spared a host is the new
                # batch's to tell.
                self._metas_seen = set()
                self._metas_skipped = set()
                self._batched.update(self._batch(play))
                return
            self._planned_plays.add(play._uuid)
            self._release_every_start()
            self._end_every_job('play ended')
            if self._stop_all:
                return
            self._play_number += 1
            self._job_of_host = {}
            self._play = play
            self._play_failed = False
            self._failed_in_play = set()
            self._batched = self._batch(play)
            self._ran_once = {}
            self._metas_seen = set()
            self._metas_skipped = set()
            self._rescued = {}
            self._failing = {}
            self._cleared = {}
            manager = play.get_variable_manager()
            # Every host of the play, not only the current batch; --limit still applies.
            hosts = manager._inventory.get_hosts(play.hosts, ignore_restrictions=True)
            tasks = self._tasks(play, manager)
            # Update ids are the tasks' names (readable, and the same in every run, so the
            # history of a task can be asked for); a name used twice gets its position.
            self._id_of_task = {}
            seen = set()
            for position, (uuid, title) in enumerate(tasks, start=1):
                task_id = title if title not in seen else '%s (%d)' % (title, position)
                seen.add(task_id)
                self._id_of_task[uuid] = task_id
            tasks = [(self._id_of_task[uuid], title) for uuid, title in tasks]
            for entry in self._order:
                entry['id'] = self._id_of_task.get(entry['uuid']) if entry['meta'] is None else None
            self._position = dict((entry['id'], position) for position, entry in enumerate(self._order) if entry['id'] is not None)
            self._before_start = set()
            if self._start_at:
                for task_id, title in tasks:
                    if fnmatch.fnmatch(title, self._start_at):
                        self._start_at = None
                        break
                    self._before_start.add(task_id)
            self._handlers_id = self._id_of_task.get(HANDLERS_UUID)
            name = play.get_name().strip()
            for host in hosts:
                key = '%d/%s' % (self._play_number, host.name)
                self._job_of_host[host.name] = key
                self._plan[key] = set(task_id for task_id, _ in tasks)
                self._running[key] = set()
                self._send({
                    'type': 'plan', 'job': key,
                    'name': host.name if self._plays_in_book == 1 or not name else '%s · %s' % (host.name, name),
                    'operation': 'install',
                    'updates': [{'id': task_id, 'title': title} for task_id, title in tasks],
                })
                if host.name in self._failed_hosts:
                    # Ansible leaves the host out of later plays: they never ran, nothing of them failed.
                    self._end(key, 'the host failed in an earlier play', not_reached=True)
                elif host.name in self._stop_hosts:
                    self._end(key, 'stopped')

    @staticmethod
    def _batch(play):
        """The names of the hosts Ansible runs the play for now: during a `serial` batch the
        inventory is restricted to it (all the play's hosts without `serial`)."""
        return set(host.name for host in play.get_variable_manager()._inventory.get_hosts(play.hosts))

    def _tasks(self, play, manager):
        """The play's tasks as (id, title), in order, tags applied, meta tasks left out."""
        tasks = []
        self._order = []
        gathering = play.gather_facts
        if gathering is None:
            gathering = C.DEFAULT_GATHERING != 'explicit'
        if gathering:
            tasks.append((GATHERING_UUID, 'Gathering Facts'))
            self._order.append({'uuid': GATHERING_UUID, 'meta': None, 'rescue': False})
        all_vars = manager.get_vars(play=play)
        self._includes_in_play = False
        for block in play.compile():
            filtered = block.filter_tagged_tasks(all_vars)
            if filtered.has_tasks():
                self._walk(filtered, tasks, False)
        if play.handlers or play.compile_roles_handlers() or self._includes_in_play:
            tasks.append((HANDLERS_UUID, 'Handlers'))
        return tasks

    def _walk(self, block, tasks, in_rescue):
        sections = ((block.block, in_rescue), (block.rescue, True), (block.always, in_rescue))
        for items, rescue in sections:
            for item in items or []:
                if hasattr(item, 'block') and not hasattr(item, 'action'):
                    self._walk(item, tasks, rescue)
                elif getattr(item, 'action', None) in C._ACTION_META:
                    meta = str((item.args or {}).get('_raw_params', ''))
                    if meta in END_ACTIONS or meta == CLEAR_ACTION:
                        self._order.append({'uuid': item._uuid, 'meta': meta, 'rescue': rescue})
                else:
                    if item.action in INCLUDE_ACTIONS:
                        self._includes_in_play = True
                    tasks.append((item._uuid, item.get_name().strip() or item.action))
                    self._order.append({'uuid': item._uuid, 'meta': None, 'rescue': rescue})

    # MARK: - Tasks

    def _reference(self, host, task):
        """(job key, update id) of a host's task in the plan, or None for what is not planned
        (handlers, dynamically included tasks) or for a job that ended. The play's own fact
        gathering is the iterator's task, whose uuid the plan could not know."""
        key = self._job_of_host.get(host.get_name())
        if key is None or key in self._ended:
            return None
        task_id = self._id_of_task.get(task._uuid)
        if task_id is None and task.action in C._ACTION_FACT_GATHERING:
            task_id = self._id_of_task.get(GATHERING_UUID)
        if task_id is None or task_id not in self._plan.get(key, ()):
            return None
        return key, task_id

    def _suppressed(self, host, task):
        """A task made not to run by a stop: its skip is no result."""
        return task._uuid in self._stopped_tasks or host.get_name() in self._stop_hosts

    def v2_playbook_on_task_start(self, task, is_conditional):
        with self._lock:
            self._settle_clearing()
            if task.action in C._ACTION_META:
                self._metas_seen.add(task._uuid)
                if task._get_meta() == CLEAR_ACTION:
                    self._clearing = task._uuid
                    self._clearing_skipped = False
        self._count_items(task)
        self._at_boundary(task)

    def v2_playbook_on_handler_task_start(self, task):
        with self._lock:
            self._settle_clearing()
        self._count_items(task)
        self._at_boundary(task)

    @staticmethod
    def _count_items(task):
        """A loop's items tell their position and the loop's length only with
        `loop_control: extended`, which this turns on (without `allitems`, which would copy
        the whole list into every item's result): its items' results then carry
        `ansible_loop` too."""
        if not (task.loop or task.loop_with) or task.loop_control is None:
            return
        if not task.loop_control.extended:
            task.loop_control.extended = True
            task.loop_control.extended_allitems = False

    def _at_boundary(self, task):
        """A task is about to start: if a stop was asked, it does not run (for every host, or
        for the hosts asked to stop)."""
        with self._lock:
            if self._stop_all:
                task.when = [False]
                self._stopped_tasks.add(task._uuid)
            elif self._stop_hosts:
                names = sorted(self._stop_hosts)
                task.when = list(task.when or []) + [_trusted('inventory_hostname not in %s' % json.dumps(names))]

    def v2_runner_on_start(self, host, task):
        with self._lock:
            if len(self._in_flight) >= self._forks:
                self._held.append((host, task))
                return
            self._in_flight.add((host.get_name(), task._uuid))
            self._started(host, task)

    def _result_read(self, host, task):
        """A task's result was read: its fork is free, so the starts held for one go out."""
        with self._lock:
            reference = (host.get_name(), task._uuid)
            if reference in self._in_flight:
                self._in_flight.discard(reference)
            else:
                # Its start was held and its result came first: the result tells of both.
                self._held = [(h, t) for h, t in self._held if (h.get_name(), t._uuid) != reference]
            while self._held and len(self._in_flight) < self._forks:
                self._release_one()

    def _release_one(self):
        held_host, held_task = self._held.pop(0)
        self._in_flight.add((held_host.get_name(), held_task._uuid))
        self._started(held_host, held_task)

    def _release_every_start(self):
        """At a play's start and the run's end every start is told: a result that never came
        (a run cut short) must not hold the others back."""
        while self._held:
            self._release_one()
        self._in_flight = set()

    def _started(self, host, task):
        with self._lock:
            if self._suppressed(host, task):
                return
            reference = self._reference(host, task)
            if reference is None:
                included = self._running_include(host, task)
                if included is not None:
                    key, handlers, include = included
                    if handlers:
                        # Handlers run only after every kept notification was flushed to them.
                        self._may_notify.discard(key)
                    name = task.get_name().strip() or task.action
                    banner = 'RUNNING HANDLER [%s]' if handlers else 'TASK [%s]'
                    self._send({'type': 'output', 'job': key, 'update': include['id'], 'stream': 'stdout', 'line': banner % name})
                    self._send({'type': 'progress', 'job': key, 'update': include['id'], 'message': name})
                return
            key, task_id = reference
            # The host moved past its include: what it included is done.
            self._close_include(key)
            self._account(key, self._position.get(task_id, 0))
            self._running[key].add(task_id)
            self._async.pop((key, task_id), None)
            if task.async_val and task.poll:
                try:
                    self._async[(key, task_id)] = (int(task.async_val) // int(task.poll), 0)
                except (TypeError, ValueError):
                    # A templated async or poll: polls are counted without their most.
                    self._async[(key, task_id)] = (0, 0)
            self._send({'type': 'started', 'job': key, 'update': task_id})

    def v2_runner_on_ok(self, result):
        result_data = result._result
        self._finish(result, 'succeeded', changed=bool(result_data.get('changed', False)),
                     reboot=self._asks_reboot(result))
        self._result_read(result._host, result._task)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        # Ansible counts an ignored failure and one a rescue section takes over (recap
        # `ignored`, `rescued`) as no failure of the host: the task shows its failure, marked.
        reason = self._failure(result._result)
        changed = bool(result._result.get('changed', False))
        if ignore_errors:
            self._finish(result, 'succeeded', reason=reason, changed=changed, mark='ignored')
        elif self._rescuable(result._task):
            self._finish(result, 'succeeded', reason=reason, changed=changed, mark='rescued')
        else:
            # An always section of an enclosing block still runs on the failed host.
            self._finish(result, 'failed', reason=reason, host_ended='host failed', deferred=self._always_follows(result._task))
            if result._task.run_once is True:
                self._fail_batch(result, reason)
        self._result_read(result._host, result._task)

    def _fail_batch(self, result, reason):
        """A run_once task failed: Ansible fails every host of the batch with it (its recap
        counts the failure only on the host it ran on), and they run no further task."""
        task, where = result._task, result._host.get_name()
        with self._lock:
            if self._play is None:
                return
            # During a batch the inventory is restricted to it, as Ansible's own loop sees it.
            batch = self._play.get_variable_manager()._inventory.get_hosts(self._play.hosts)
            for name in (host.name for host in batch if host.name != where):
                key = self._job_of_host.get(name)
                if key is None or key in self._ended:
                    continue
                self._failed_hosts.add(name)
                task_id = self._id_of_task.get(task._uuid)
                if task_id in self._plan[key] and task_id not in self._finished.get(key, ()):
                    self._account(key, self._position.get(task_id, 0))
                    self._send({'type': 'finished', 'job': key, 'update': task_id, 'result': 'failed',
                                'reason': 'failed on %s (run_once): %s' % (where, reason)})
                    self._finished.setdefault(key, set()).add(task_id)
                if self._always_follows(task):
                    self._failing[key] = 'host failed'
                else:
                    self._end(key, 'host failed')

    def v2_runner_on_skipped(self, result):
        with self._lock:
            if result._task.action in C._ACTION_META:
                self._metas_skipped.add((result._host.get_name(), result._task._uuid))
                if result._task._uuid == self._clearing:
                    # Its condition was false on the host Ansible ran it for: it cleared nothing.
                    self._clearing_skipped = True
                return
            if not self._suppressed(result._host, result._task):
                # A module skipped in check mode says why only in its msg.
                self._finish(result, 'skipped', reason=result._result.get('skip_reason') or result._result.get('msg') or 'skipped')
        self._result_read(result._host, result._task)

    def v2_runner_on_unreachable(self, result):
        reason = 'unreachable: ' + self._failure(result._result)
        if result._task.ignore_unreachable:
            # Ansible counts it ok and ignored, and the host goes on.
            self._finish(result, 'succeeded', reason=reason, mark='ignored')
        else:
            self._finish(result, 'failed', reason=reason, host_ended='host unreachable')
        self._result_read(result._host, result._task)

    # MARK: - Loops and polls

    def v2_runner_item_on_ok(self, result):
        self._item(result, None)

    def v2_runner_item_on_skipped(self, result):
        self._item(result, None)

    def v2_runner_item_on_failed(self, result):
        self._item(result, self._failure(result._result))

    def _item(self, result, failure):
        """One item of a loop is done: the bar moves to it ("item 3/50: its label"), its output
        goes to the task's log, and the first failing one is the task's reason."""
        data = result._result
        loop = data.get('ansible_loop') or {}
        index, length = loop.get('index'), loop.get('length')
        text = 'item %d/%d' % (index, length) if index and length else 'item'
        text += ': %s' % (self._get_item_label(data),)
        text = text[:OUTPUT_LINE_LENGTH]
        with self._lock:
            if self._suppressed(result._host, result._task):
                return
            reference = self._reference(result._host, result._task)
            if reference is None:
                included = self._running_include(result._host, result._task)
                if included is not None:
                    name = result._task.get_name().strip() or result._task.action
                    self._send({'type': 'progress', 'job': included[0], 'update': included[2]['id'], 'message': '%s: %s' % (name, text)})
                return
            key, task_id = reference
            if failure is not None:
                self._item_failures.setdefault((key, task_id), '%s: %s' % (text, failure))
            self._send({'type': 'output', 'job': key, 'update': task_id, 'stream': 'stdout',
                        'line': '%s%s' % (text, ' failed' if failure is not None else '')})
            for stream, line in self._output(data):
                self._send({'type': 'output', 'job': key, 'update': task_id, 'stream': stream, 'line': line})
            message = {'type': 'progress', 'job': key, 'update': task_id, 'message': text}
            if index and length:
                message['percent'] = round(100.0 * index / length, 1)
            self._send(message)

    def v2_runner_on_async_poll(self, result):
        """The controller polled an async task that is not done: how many polls of the most
        its `async` time allows ("polling 3/10"). Ansible tells it of an `async_status` task of
        its own, not of the task that started: that is the host's async task running now."""
        with self._lock:
            key = self._job_of_host.get(result._host.get_name())
            if key is None or key in self._ended:
                return
            polled = [task_id for (job, task_id) in self._async if job == key and task_id in self._running[key]]
            if len(polled) != 1:
                return
            reference = (key, polled[0])
            most, count = self._async[reference]
            self._async[reference] = (most, count + 1)
            self._send({'type': 'progress', 'job': key, 'update': polled[0],
                        'message': 'polling %d/%d' % (count + 1, most) if most else 'polling %d' % (count + 1)})

    @staticmethod
    def _rescuable(task):
        """The task is in the `block` section of a block (its own or an enclosing one, through
        includes) that has a rescue section: Ansible rescues its failure."""
        child, parent = task._uuid, task._parent
        while parent is not None:
            if isinstance(parent, Block) and parent.rescue and \
                    any(getattr(item, '_uuid', None) == child for item in parent.block or []):
                return True
            child, parent = parent._uuid, getattr(parent, '_parent', None)
        return False

    @staticmethod
    def _always_follows(task):
        """The task is in the `block` or `rescue` section of a block (its own or an enclosing
        one) that has an always section: Ansible runs that on the host before it ends it."""
        child, parent = task._uuid, task._parent
        while parent is not None:
            if isinstance(parent, Block) and parent.always and \
                    any(getattr(item, '_uuid', None) == child for item in list(parent.block or []) + list(parent.rescue or [])):
                return True
            child, parent = parent._uuid, getattr(parent, '_parent', None)
        return False

    def _finish(self, result, outcome, reason=None, changed=None, reboot=False, host_ended=None, mark=None, deferred=False):
        host, task = result._host, result._task
        with self._lock:
            if host_ended:
                self._failed_hosts.add(host.get_name())
                if host.get_name() in self._job_of_host:
                    self._play_failed = True
                    self._failed_in_play.add(host.get_name())
            reference = self._reference(host, task)
            if reference is None:
                included = self._running_include(host, task)
                if included is not None:
                    self._included_result(included, result, outcome, reason, changed, reboot, host_ended, mark)
                return
            key, task_id = reference
            if task_id not in self._running[key]:
                self._account(key, self._position.get(task_id, 0))
                self._send({'type': 'started', 'job': key, 'update': task_id})
            if task.run_once is True:
                # Ansible runs it on the first host of the batch and tells of that host only.
                self._ran_once[task_id] = (host.get_name(), outcome, reason)
            if mark == 'rescued':
                self._rescued[key] = self._position.get(task_id, 0)
            if task.action in INCLUDE_ACTIONS and outcome == 'succeeded':
                # Its tasks run now, unknown to the plan: it stands for them until it closes.
                self._running[key].add(task_id)
                self._includes[(key, False)] = {'id': task_id, 'changed': False}
                self._send({'type': 'progress', 'job': key, 'update': task_id, 'message': 'including tasks'})
                return
            self._running[key].discard(task_id)
            self._async.pop((key, task_id), None)
            item_failure = self._item_failures.pop((key, task_id), None)
            if item_failure and outcome != 'skipped' and reason:
                # A loop says only "One or more items failed": the first failing item says which.
                reason = item_failure
            delegate = self._delegate(result)
            if delegate and outcome == 'failed':
                reason = 'on %s: %s' % (delegate, reason)
            for stream, line in self._output(result._result):
                self._send({'type': 'output', 'job': key, 'update': task_id, 'stream': stream, 'line': line})
            if reboot:
                self._send({'type': 'reboot', 'job': key, 'update': task_id})
            message = {'type': 'finished', 'job': key, 'update': task_id, 'result': outcome}
            if reason:
                message['reason'] = reason
            if changed is not None:
                message['changed'] = changed
            if mark:
                message['mark'] = mark
            if outcome == 'succeeded' and self._checked(result):
                message['check'] = True
            if delegate and outcome == 'succeeded':
                message['ranOn'] = delegate
            stays = host_ended is not None and (deferred or self._forces_handlers(key, host_ended))
            held = host_ended is not None and self._hold_failure(key, task_id, message, host_ended, stays)
            if not held:
                self._send(message)
                self._finished.setdefault(key, set()).add(task_id)
            if changed and self._notifies(key, task):
                self._may_notify.add(key)
            if host_ended and (stays or held):
                self._failing[key] = host_ended
            elif host_ended:
                self._end(key, host_ended)
            elif (self._stop_all or host.get_name() in self._stop_hosts) and not self._running[key]:
                self._end(key, 'stopped')
            else:
                self._end_if_done(key)

    @staticmethod
    def _delegate(result):
        """The host a delegated task ran on, as Ansible names it in `[web2 -> web1]`, or None."""
        delegate = result._task.delegate_to
        if not delegate or delegate == result._host.get_name():
            return None
        return str(delegate)

    @staticmethod
    def _checked(result):
        """The task ran in check mode (`--check`, or its own `check_mode: true`), as the worker
        decided it: nothing was changed."""
        fields = getattr(result, '_task_fields', None) or {}
        checked = fields.get('check_mode')
        if checked is None:
            checked = result._task.check_mode
        return checked is True

    def _forces_handlers(self, key, host_ended):
        """Ansible still runs the handlers notified on a host that failed when the play forces
        handlers (`force_handlers`, `--force-handlers`): the failed host's job stays open for
        them, and ends with its handlers' results when the play (or batch) does."""
        return host_ended == 'host failed' and self._play is not None and bool(self._play.force_handlers) and \
            self._handlers_id in self._plan.get(key, ()) and (key in self._may_notify or bool(self._notified.get(key)))

    # MARK: - Cleared failures

    def _hold_failure(self, key, task_id, message, why, stays):
        """A failure that ends the host (`why`) while a meta clear_host_errors lies ahead in the
        play: whether it counts is not known until Ansible comes to the meta, so its `finished`
        waits (the task shows its failure as it waits). `stays`: the job is not ended when the
        failure stands (its always sections or forced handlers still run). Says whether it was
        held."""
        if not self._clear_ahead(self._position.get(task_id)):
            return False
        self._uncleared[key] = {'message': message, 'ends': not stays, 'why': why}
        self._send({'type': 'progress', 'job': key, 'update': task_id,
                    'message': 'failed: %s (a meta: clear_host_errors later in the play may clear it)' % message.get('reason', 'failed')})
        return True

    def _clear_ahead(self, position):
        """A meta clear_host_errors comes after `position` of the play's order."""
        return position is not None and any(entry['meta'] == CLEAR_ACTION for entry in self._order[position + 1:])

    def _release_failure(self, key):
        """A failure held for a clear_host_errors that can no longer come (or the host's job
        ends): it stands. Says whether the job ends with it."""
        held = self._uncleared.pop(key, None)
        if held is None:
            return False
        message = held['message']
        self._send(message)
        self._finished.setdefault(key, set()).add(message['update'])
        return held['ends']

    def _settle_clearing(self):
        """Ansible moved on from a clear_host_errors meta it began: it runs the meta once for
        the batch, in the main loop, and tells of it only when its condition skips it, so a meta
        that was not skipped by now cleared the errors of every host of the batch."""
        if self._clearing is None:
            return
        uuid, skipped, self._clearing = self._clearing, self._clearing_skipped, None
        if self._play is None:
            return
        if skipped:
            # What it could have cleared stands unless another one lies ahead.
            position = next((index for index, entry in enumerate(self._order) if entry['uuid'] == uuid), None)
            if position is not None and not self._clear_ahead(position):
                for key in list(self._uncleared):
                    why = self._uncleared[key]['why']
                    if self._release_failure(key):
                        self._failing.pop(key, None)
                        self._end(key, why)
            return
        # During a batch the inventory is restricted to it, as the meta's own loop sees it.
        batch = [host.name for host in self._play.get_variable_manager()._inventory.get_hosts(self._play.hosts)]
        for name in batch:
            # Later plays run it again (it may have failed in an earlier play, too).
            self._failed_hosts.discard(name)
            self._failed_in_play.discard(name)
            key = self._job_of_host.get(name)
            held = self._uncleared.pop(key, None)
            if held is None:
                continue
            # Ansible's recap still counts the task failed, and the host ran none of the play's
            # later tasks; only later plays (and the exit status) see the failure taken back.
            reason = held['message'].get('reason') or 'failed'
            message = dict(held['message'], result='failed', mark='cleared',
                           reason=reason + ' (meta: clear_host_errors took it back: the host goes on in the next play)')
            self._send(message)
            self._finished.setdefault(key, set()).add(message['update'])
            self._failing.pop(key, None)
            self._cleared[key] = self._position.get(message['update'], 0)
        self._play_failed = bool(self._failed_in_play)

    def _notifies(self, key, task):
        """A changed result of this task notifies handlers of the host's play (ansible's own
        test); without handlers in the play, a notification has nowhere to go."""
        return self._handlers_id in self._plan[key] and bool(getattr(task, 'notify', None))

    def _end_if_done(self, key):
        """Ends a host whose work in the play is done: its last task finished, nothing it
        included is open, and no handler is left to run for it, so with `strategy: free` a
        host is done when it is, not when the slowest host is (a serial batch ends before the
        play, too). A host whose handlers cannot be told done stays until the play ends."""
        if self._tasks_done(key) and (key, False) not in self._includes and \
                key not in self._may_notify and not self._notified.get(key):
            self._end(key, 'done')

    def _tasks_done(self, key):
        """Every planned task of the host has finished (its Handlers update aside)."""
        return self._finished.get(key, set()) >= self._plan[key] - {self._handlers_id}

    def v2_playbook_on_notify(self, handler, host):
        """Notifications are kept until handlers are flushed; then each handler to run for the
        host is told here, before any of them runs."""
        with self._lock:
            self._settle_clearing()
            key = self._job_of_host.get(host.get_name())
            if key is not None and key not in self._ended:
                self._may_notify.discard(key)
                self._notified.setdefault(key, set()).add(handler._uuid)

    # MARK: - Includes

    def _running_include(self, host, task):
        """(job key, is handlers, include) of what stands for a task the plan does not know:
        for a handler the play's Handlers update, started with the first handler; for any other
        task the include the host runs now."""
        key = self._job_of_host.get(host.get_name())
        if key is None or key in self._ended:
            return None
        if isinstance(task, Handler):
            if self._handlers_id not in self._plan.get(key, ()) or self._handlers_id in self._finished.get(key, ()):
                return None
            include = self._includes.get((key, True))
            if include is None:
                include = {'id': self._handlers_id, 'changed': False}
                self._includes[(key, True)] = include
                self._running[key].add(self._handlers_id)
                self._send({'type': 'started', 'job': key, 'update': self._handlers_id})
            return key, True, include
        include = self._includes.get((key, False))
        return None if include is None else (key, False, include)

    def _included_result(self, included, result, outcome, reason, changed, reboot, host_ended, mark):
        """An included task's result, told as its include's: output, reboot, changed, and a
        failure that ends the host fails the include, naming the task."""
        key, handlers, include = included
        for stream, line in self._output(result._result):
            self._send({'type': 'output', 'job': key, 'update': include['id'], 'stream': stream, 'line': line})
        if reboot:
            self._send({'type': 'reboot', 'job': key, 'update': include['id']})
        if changed:
            include['changed'] = True
            # A handler's own notifications reach the handlers at once (told before its result).
            if not handlers and self._notifies(key, result._task):
                self._may_notify.add(key)
        name = result._task.get_name().strip() or result._task.action
        if outcome == 'failed' and host_ended:
            stays = not handlers and self._forces_handlers(key, host_ended)
            held = self._close_include(key, handlers, 'failed', '%s: %s' % (name, reason), host_ended=host_ended, stays=stays)
            if held or stays:
                self._failing[key] = host_ended
            else:
                self._end(key, host_ended)
            return
        if mark in ('ignored', 'rescued'):
            self._send({'type': 'output', 'job': key, 'update': include['id'], 'stream': 'stderr',
                        'line': '%s failed (%s): %s' % (name, mark, reason)})
        if handlers:
            self._notified.get(key, set()).discard(result._task._uuid)
            self._end_if_done(key)

    def _close_include(self, key, handlers=False, result='succeeded', reason=None, host_ended=None, stays=False):
        """Gives what stood for the host's included tasks (or handlers) its result; a failure
        that ends the host (`host_ended`; `stays`: its job stays open after it) may be held for a
        clear_host_errors ahead: says whether it was."""
        include = self._includes.pop((key, handlers), None)
        if include is None:
            return False
        self._running[key].discard(include['id'])
        message = {'type': 'finished', 'job': key, 'update': include['id'], 'result': result, 'changed': include['changed']}
        if reason:
            message['reason'] = reason
        if host_ended is not None and not handlers and self._hold_failure(key, include['id'], message, host_ended, stays):
            return True
        self._send(message)
        self._finished.setdefault(key, set()).add(include['id'])
        return False

    @staticmethod
    def _asks_reboot(result):
        """The host asks for a reboot: the result says so, or it is a stat of Debian's marker
        on that host that found it."""
        data = result._result
        if data.get('reboot_required') is True:
            return True
        task = result._task
        if task.action in STAT_ACTIONS and str(task.args.get('path', '')) == REBOOT_MARKER:
            return bool((data.get('stat') or {}).get('exists'))
        return False

    @staticmethod
    def _failure(data):
        message = data.get('msg') or data.get('reason')
        # command and shell say only "non-zero return code": what the command printed says more.
        if message == 'non-zero return code':
            message = None
        if not message:
            for key in ('stderr', 'stdout'):
                lines = [line for line in str(data.get(key) or '').splitlines() if line.strip()]
                if lines:
                    message = lines[-1]
                    break
        if not message and data.get('rc') is not None:
            message = 'exit status %s' % data.get('rc')
        return str(message or 'failed')

    @staticmethod
    def _output(data):
        lines = []
        for key, stream in (('stdout', 'stdout'), ('stderr', 'stderr')):
            text = data.get(key)
            if isinstance(text, str) and text:
                lines.extend((stream, line) for line in text.splitlines())
        if not lines and isinstance(data.get('msg'), str) and data.get('msg'):
            lines.extend(('stdout', line) for line in data['msg'].splitlines())
        return [(stream, line[:OUTPUT_LINE_LENGTH]) for stream, line in lines[-OUTPUT_LINES_PER_RESULT:]]

    # MARK: - Ends and stops

    def _account(self, key, before):
        """Gives a result to each planned task before position `before` of the play's order
        that Ansible went past on this host without a word: a run_once task that ran on another
        host, what a meta `end_*` jumped over, a rescue section with no failure to rescue, the
        rest of a block whose failure was rescued. What none of these explains is `unknown`,
        except after a host failed in the play, which may have stopped it: that is left for the
        job's end (not started, the play stopped). A host that failed and runs its always
        sections leaves what it went past to its end (not started, host failed)."""
        if key in self._failing:
            return
        host = key.split('/', 1)[1]
        done = self._finished.setdefault(key, set())
        for position, entry in enumerate(self._order[:before]):
            task_id = entry['id']
            if task_id is None or task_id in done or task_id in self._running[key] or \
                    task_id not in self._plan[key] or task_id == self._handlers_id:
                continue
            message = {'type': 'finished', 'job': key, 'update': task_id}
            ended = self._ended_by_meta(host, position)
            if task_id in self._ran_once:
                where, outcome, reason = self._ran_once[task_id]
                if outcome == 'skipped':
                    message.update(result='skipped', reason='skipped on %s (run_once): %s' % (where, reason))
                else:
                    message.update(result='succeeded', mark='ranElsewhere', reason='ran on %s' % where)
            elif ended:
                message.update(result='skipped', reason='not run: ' + ended)
            elif task_id in self._before_start:
                message.update(result='skipped', reason='not run: before --start-at-task')
            elif entry['rescue']:
                message.update(result='skipped', reason='not run: no failure to rescue')
            elif key in self._rescued and position > self._rescued[key]:
                message.update(result='skipped', reason='not run: a task before it in its block failed and was rescued')
            elif key in self._cleared and position > self._cleared[key]:
                message.update(result='aborted', mark='notReached',
                               reason='not started: the host failed before it (meta: clear_host_errors then cleared the failure)')
            elif self._play_failed:
                continue
            else:
                message.update(result='skipped', mark='unknown', reason='Ansible told nothing of this task on this host')
            self._send(message)
            done.add(task_id)

    def _ended_by_meta(self, host, position):
        """Why a meta `end_*` before `position` ended the host's work, or None. A meta that does
        not act is reported skipped: end_host on each host it spares, end_play and end_batch
        (run once for the batch) on one host."""
        for entry in self._order[:position]:
            meta = entry['meta']
            if meta not in END_ACTIONS or entry['uuid'] not in self._metas_seen:
                continue
            if meta == 'end_host':
                spared = (host, entry['uuid']) in self._metas_skipped
            else:
                spared = any(uuid == entry['uuid'] for _, uuid in self._metas_skipped)
            if not spared:
                return END_ACTIONS[meta]
        return None

    def _play_ended_by_meta(self):
        """Why a meta end_play ended the play in the batch Ansible ran last, or None."""
        for entry in self._order:
            if entry['meta'] == 'end_play' and entry['uuid'] in self._metas_seen and \
                    not any(uuid == entry['uuid'] for _, uuid in self._metas_skipped):
                return END_ACTIONS['end_play']
        return None

    def _stop_reason(self):
        if self._play is not None and self._play.any_errors_fatal:
            return 'the play stopped: a host failed (any_errors_fatal)'
        if self._play is not None and self._play.max_fail_percentage is not None:
            return 'the play stopped: more hosts failed than max_fail_percentage allows'
        return 'the play stopped after a host failed'

    def _end(self, key, reason, not_reached=False):
        if key in self._ended:
            return
        self._release_failure(key)
        if reason in ('done', 'play ended') and key in self._failing:
            reason = self._failing[key]
        finished = reason in ('done', 'play ended')
        began = bool(self._finished.get(key) or self._running.get(key))
        if finished and key.split('/', 1)[1] not in self._batched:
            # Ansible never came to the host: the play ended before its `serial` batch.
            reason = self._play_ended_by_meta() or (self._stop_reason() if self._play_failed else
                                                    'the play ended before its batch')
            not_reached = True
        elif finished:
            self._account(key, len(self._order))
            if self._play_failed and not self._tasks_done(key):
                reason = self._stop_reason()
                not_reached = True
        for handlers, what in ((False, 'its included tasks'), (True, 'the handlers')):
            if finished or (handlers and not self._notified.get(key) and key in self._failing):
                # A failed host whose handlers were forced ran every one notified.
                self._close_include(key, handlers)
            elif reason == 'stopped':
                self._close_include(key, handlers, 'aborted', 'stopped: %s may not all have run' % what)
            else:
                self._close_include(key, handlers, 'aborted', '%s: %s may not all have run' % (reason, what))
        handlers = self._handlers_id
        if finished and began and handlers in self._plan.get(key, ()) and \
                handlers not in self._finished.get(key, ()):
            # Ansible runs no handler on a host a meta end_* ended, notified or not.
            ended = self._ended_by_meta(key.split('/', 1)[1], len(self._order))
            why = 'not run: ' + ended if ended else 'no handler was notified'
            self._send({'type': 'finished', 'job': key, 'update': handlers, 'result': 'skipped', 'reason': why})
            self._finished.setdefault(key, set()).add(handlers)
        self._ended.add(key)
        message = {'type': 'jobEnded', 'job': key, 'reason': reason}
        if not_reached or (finished and not began):
            # Ansible never came to this host in the play (a later batch of a stopped play):
            # nothing of it failed.
            message['notReached'] = True
        self._send(message)

    def _end_every_job(self, reason):
        for key in list(self._job_of_host.values()):
            self._end(key, reason)

    def _stop(self, job):
        """Stop the whole run (job None) or one host's job at the next task boundary, and say
        which running tasks (update ids) the stop waits for."""
        with self._lock:
            # A held start is a task already on a worker: the stop must wait for it too.
            while self._held:
                self._release_one()
            if job is None:
                self._stop_all = True
                waiting = sorted(set(task_id for key in self._job_of_host.values() if key not in self._ended
                                     for task_id in self._running.get(key, ())))
                self._send({'type': 'stopping', 'waitingFor': waiting})
                for key in list(self._job_of_host.values()):
                    if not self._running.get(key):
                        self._end(key, 'stopped')
                return
            host = next((name for name, key in self._job_of_host.items() if key == job), None)
            if host is None or job in self._ended:
                return
            self._stop_hosts.add(host)
            self._send({'type': 'stopping', 'job': job, 'waitingFor': sorted(self._running.get(job, ()))})
            if not self._running.get(job):
                self._end(job, 'stopped')

    def v2_playbook_on_stats(self, stats):
        with self._lock:
            self._settle_clearing()
            self._release_every_start()
            reason = 'stopped' if self._stop_all else 'play ended'
            for key in list(self._job_of_host.values()):
                self._end(key, 'stopped' if key.split('/', 1)[1] in self._stop_hosts else reason)
