extension DifferentialCase {
    /// The corpus: each construct of issue 20 the way operators write it. Hosts web1…web4.
    static let corpus: [DifferentialCase] = [
        DifferentialCase(
            name: "block-rescue-always",
            proves: "a rescued failure is marked rescued and the host goes on through rescue, always, later tasks and the next play; hosts that did not fail skip the rescue",
            playbook: """
                - name: Rescue
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Guarded
                      block:
                        - name: Break web1
                          command: /bin/false
                          when: inventory_hostname == 'web1'
                        - name: After break
                          command: /bin/true
                      rescue:
                        - name: Repair
                          command: /bin/true
                      always:
                        - name: Tidy
                          command: /bin/true
                    - name: Later
                      command: /bin/true
                - name: Second
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Again
                      command: /bin/true
                """),
        DifferentialCase(
            name: "rescue-fails-always-fails",
            proves: "a failing rescue fails the host; a block inside a rescue rescues its own failure; an always that fails after a rescue fails the host",
            playbook: """
                - name: Nested
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Outer
                      block:
                        - name: Break
                          command: /bin/false
                          when: inventory_hostname in ['web1', 'web2', 'web3']
                      rescue:
                        - name: Inner
                          block:
                            - name: Rescue breaks web1
                              command: /bin/false
                              when: inventory_hostname == 'web1'
                          rescue:
                            - name: Inner repair
                              command: /bin/true
                        - name: Rescue breaks web2
                          command: /bin/false
                          when: inventory_hostname == 'web2'
                      always:
                        - name: Always breaks web3
                          command: /bin/false
                          when: inventory_hostname == 'web3'
                    - name: Later
                      command: /bin/true
                """),
        DifferentialCase(
            name: "run_once-delegate_to",
            proves: "a run_once task is the first host's and 'ran elsewhere' on the others, never against them; delegate_to gives each host its own result",
            playbook: """
                - name: Once
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Migrate
                      command: /bin/true
                      run_once: true
                    - name: Delegated
                      command: /bin/true
                      delegate_to: web1
                    - name: Both
                      command: /bin/true
                      run_once: true
                      delegate_to: web2
                    - name: Local action
                      local_action: command /bin/true
                    - name: After
                      command: /bin/true
                """),
        DifferentialCase(
            name: "meta-end_host-end_play",
            proves: "meta end_host skips the rest of that host with the reason, end_play the rest of the play for all; nobody fails",
            playbook: """
                - name: End host
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: First
                      command: /bin/true
                    - name: Stop web2
                      meta: end_host
                      when: inventory_hostname == 'web2'
                    - name: Rest
                      command: /bin/true
                - name: End play
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Start
                      command: /bin/true
                    - name: Stop all
                      meta: end_play
                    - name: Never
                      command: /bin/true
                """),
        DifferentialCase(
            name: "serial-max_fail_percentage",
            proves: "after the first batch exceeds max_fail_percentage, the hosts of later batches end aborted, not started, never failed",
            playbook: """
                - name: Batches
                  hosts: web
                  gather_facts: false
                  serial: 2
                  max_fail_percentage: 0
                  tasks:
                    - name: Work
                      command: /bin/false
                      when: inventory_hostname == 'web1'
                    - name: More
                      command: /bin/true
                """),
        DifferentialCase(
            name: "any_errors_fatal",
            proves: "one host's failure stops the play: only it fails, the others' rest is not started",
            playbook: """
                - name: Fatal
                  hosts: web
                  gather_facts: false
                  any_errors_fatal: true
                  tasks:
                    - name: Break
                      command: /bin/false
                      when: inventory_hostname == 'web2'
                    - name: Rest
                      command: /bin/true
                """),
        DifferentialCase(
            name: "ignore_errors",
            proves: "an ignored failure is marked ignored, the host goes on and the exit status is Ansible's (0)",
            playbook: """
                - name: Ignore
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Shaky
                      command: /bin/false
                      ignore_errors: true
                    - name: After
                      command: /bin/true
                """),
        DifferentialCase(
            name: "failed_when-changed_when-loops",
            proves: "failed_when and changed_when decide as Ansible does; one failing loop item fails the task and the host",
            playbook: """
                - name: Conditions
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Not really failed
                      command: /bin/false
                      failed_when: false
                      changed_when: false
                    - name: Really failed
                      command: /bin/true
                      failed_when: inventory_hostname == 'web3'
                    - name: Items
                      command: "/bin/{{ 'false' if item == 3 and inventory_hostname == 'web4' else 'true' }}"
                      loop: [1, 2, 3]
                    - name: After
                      command: /bin/true
                """),
        DifferentialCase(
            name: "serial-end_batch-handlers",
            proves: "end_batch skips the rest of its batch with the reason; handlers notified by handlers and through listen, throttle and until/retries are ok",
            playbook: """
                - name: Batches
                  hosts: web
                  gather_facts: false
                  serial: 2
                  tasks:
                    - name: Retry
                      command: /bin/true
                      register: outcome
                      until: outcome.rc == 0
                      retries: 2
                      delay: 0
                    - name: Notify
                      command: /bin/true
                      notify: first
                    - name: Throttled
                      command: /bin/true
                      throttle: 1
                    - name: Batch end for web3
                      meta: end_batch
                      when: inventory_hostname == 'web3'
                    - name: Final
                      command: /bin/true
                  handlers:
                    - name: first
                      command: /bin/true
                      notify: restart things
                    - name: second
                      command: /bin/true
                      listen: restart things
                """),
        DifferentialCase(
            name: "start-at-task",
            proves: "tasks before --start-at-task are skipped, not aborted, in this play and the play before it",
            playbook: """
                - name: Earlier
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Not this
                      command: /bin/true
                - name: Later
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Before
                      command: /bin/true
                    - name: Start here
                      command: /bin/true
                    - name: After
                      command: /bin/true
                """,
            arguments: ["--start-at-task", "Start here"]),
        DifferentialCase(
            name: "tags-check-mode",
            proves: "tasks not selected by --tags are not planned; in check mode a command is skipped with its message, as Ansible counts it",
            playbook: """
                - name: Tags
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Patch
                      command: /bin/true
                      tags: [patch]
                    - name: Other
                      command: /bin/true
                    - name: Patch always
                      command: /bin/true
                      tags: [patch]
                      check_mode: false
                """,
            arguments: ["--tags", "patch", "--check"]),
        DifferentialCase(
            name: "plays-include_role-loop-import_playbook",
            proves: "a host failed in one play is not run in later plays while the others go on; include_role in a loop and import_playbook agree with Ansible",
            playbook: """
                - name: First
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Break web2
                      command: /bin/false
                      when: inventory_hostname == 'web2'
                - name: Roles
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Apply
                      include_role:
                        name: worker
                      loop: [a, b]
                    - name: After roles
                      command: /bin/true
                - import_playbook: more.yml
                """,
            files: [
                "roles/worker/tasks/main.yml": """
                    - name: Work on item
                      command: /bin/true
                    """,
                "more.yml": """
                    - name: Imported
                      hosts: web
                      gather_facts: false
                      strategy: free
                      tasks:
                        - name: Free work
                          command: /bin/true
                    """,
            ]),
        DifferentialCase(
            name: "async-wait_for-delegate_facts",
            proves: "an async task polled to its end, wait_for, and facts gathered once for another host (run_once, delegate_to, delegate_facts) agree with Ansible",
            playbook: """
                - name: Waits
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Background
                      command: /bin/true
                      async: 30
                      poll: 1
                    - name: Wait for the root
                      wait_for:
                        path: /
                        timeout: 5
                    - name: Facts for web1
                      setup:
                        gather_subset: [min]
                      delegate_to: web1
                      delegate_facts: true
                      run_once: true
                    - name: Uses them
                      command: /bin/true
                      when: hostvars['web1'].ansible_facts.hostname is defined
                """),
        DifferentialCase(
            name: "loops-items-labels",
            proves: "a loop moves its task per item (item k/n with loop_control's label, in Ansible's order, the last its last); a failing item fails the task and the host; with_items and items skipped by when agree",
            playbook: """
                - name: Loops
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Packages
                      command: "/bin/{{ 'false' if item.name == 'c' and inventory_hostname == 'web4' else 'true' }}"
                      loop: [{name: a, v: 1}, {name: b, v: 2}, {name: c, v: 3}, {name: d, v: 4}, {name: e, v: 5}]
                      loop_control:
                        label: "{{ item.name }}"
                    - name: Old style
                      command: /bin/true
                      with_items: [x, y]
                      when: inventory_hostname != 'web3'
                    - name: After
                      command: /bin/true
                """),
        DifferentialCase(
            name: "unreachable",
            proves: "a host no connection reaches ends unreachable, its remaining tasks not started and its later plays not run; ignore_unreachable marks the task ignored and the host goes on to its next task",
            playbook: """
                - name: Reach
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Tolerated
                      command: /bin/true
                      ignore_unreachable: true
                    - name: Needed
                      command: /bin/true
                    - name: Later
                      command: /bin/true
                - name: Next
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Again
                      command: /bin/true
                """,
            files: [
                // web4 goes through ssh whose proxy exits at once: unreachable, with no traffic.
                "host_vars/web4.yml": """
                    ansible_connection: ssh
                    ansible_host: web4.invalid
                    ansible_ssh_common_args: -F /dev/null -o ProxyCommand=/bin/false
                    """,
            ]),
        DifferentialCase(
            name: "check-mode",
            proves: "in check mode a task Ansible reports changed says 'would change', one with check_mode: false 'changed', an unchanged one 'ok'",
            playbook: """
                - name: Dry
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Write a file
                      copy:
                        content: "x\\n"
                        dest: "{{ playbook_dir }}/never-{{ inventory_hostname }}"
                    - name: Really run
                      command: /bin/true
                      check_mode: false
                    - name: Already there
                      file:
                        path: "{{ playbook_dir }}"
                        state: directory
                """,
            arguments: ["--check"]),
        DifferentialCase(
            name: "run_once-fails-delegate",
            proves: "a failing run_once task fails every host of the batch: no later task, and the next play leaves them out, as Ansible does; a delegated task says where it ran",
            playbook: """
                - name: Once fails
                  hosts: web1,web2
                  gather_facts: false
                  tasks:
                    - name: Delegated
                      command: /bin/true
                      delegate_to: web3
                    - name: Migrate fails
                      command: /bin/false
                      run_once: true
                    - name: Not after a failure
                      command: /bin/true
                - name: The others
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Only web3 and web4
                      command: /bin/true
                """),
        DifferentialCase(
            name: "handlers-end_host-end_batch",
            proves: "handlers notified before meta end_host or end_batch do not run on the hosts it ended, as in Ansible; the others run them",
            playbook: """
                - name: End host
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Notify
                      command: /bin/true
                      notify: react
                    - name: End web2
                      meta: end_host
                      when: inventory_hostname == 'web2'
                    - name: Rest
                      command: /bin/true
                  handlers:
                    - name: react
                      command: /bin/true
                - name: End batch
                  hosts: web
                  gather_facts: false
                  serial: 2
                  tasks:
                    - name: Notify again
                      command: /bin/true
                      notify: react again
                    - name: End the batch
                      meta: end_batch
                      when: inventory_hostname in ['web1', 'web3']
                    - name: Rest again
                      command: /bin/true
                  handlers:
                    - name: react again
                      command: /bin/true
                """),
        DifferentialCase(
            name: "async-polling",
            proves: "an async task the controller polls shows its polls while it runs, as Ansible polls it",
            playbook: """
                - name: Poll
                  hosts: web
                  gather_facts: false
                  tasks:
                    # 12 s: on a loaded machine Ansible's first poll of a host came after a
                    # 5 s sleep had ended (no poll in one run, two in the other).
                    - name: Slow
                      command: sleep 12
                      async: 30
                      poll: 1
                    - name: After
                      command: /bin/true
                """),
        DifferentialCase(
            name: "force_handlers",
            proves: "with force_handlers a failed host still runs the handlers notified before its failure, shown on its Handlers update; its remaining tasks stay not started, and without force_handlers a failed host runs none",
            playbook: """
                - name: Forced
                  hosts: web1,web2
                  gather_facts: false
                  force_handlers: true
                  roles:
                    - forced
                - name: Not forced
                  hosts: web3,web4
                  gather_facts: false
                  tasks:
                    - name: Notify again
                      command: /bin/true
                      notify: echo again
                    - name: Fail web4
                      fail:
                        msg: web4 breaks
                      when: inventory_hostname == 'web4'
                  handlers:
                    - name: echo again
                      command: echo handled
                """,
            files: [
                "roles/forced/tasks/main.yml": """
                    - name: Notify the handler
                      shell: echo
                      notify: echoing handler
                    - name: Fail web2
                      fail:
                        msg: web2 breaks
                      when: inventory_hostname == 'web2'
                    - name: After the failure
                      command: echo after
                    """,
                "roles/forced/handlers/main.yml": """
                    - name: echoing handler
                      command: echo handled
                    """,
            ]),
        DifferentialCase(
            name: "clear_host_errors",
            proves: "a failure meta clear_host_errors takes back is shown failed and marked cleared: the host goes on through its always section and in the next play, one a skipped clear leaves stands, and the exit status is Ansible's (0)",
            playbook: """
                - name: Recover in always
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Guarded
                      block:
                        - name: Break web1
                          fail:
                          when: inventory_hostname == 'web1'
                        - name: Only without a failure
                          command: /bin/true
                      always:
                        - name: Forgive
                          block:
                            - meta: clear_host_errors
                    - name: After the block
                      command: /bin/true
                - name: Recover later
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Break web2
                      command: /bin/false
                      when: inventory_hostname == 'web2'
                    - name: Not this time
                      meta: clear_host_errors
                      when: inventory_hostname == 'web4'
                    - name: Forgive all
                      meta: clear_host_errors
                    - name: Only the others
                      command: /bin/true
                - name: Everyone again
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Again
                      command: /bin/true
                """),
        DifferentialCase(
            name: "clear_host_errors-last",
            proves: "a play that ends with meta clear_host_errors: the host whose task failed failed it (Ansible's recap counts failed=1) and ran none of the play's later tasks, then runs the next play; the exit status is Ansible's (0)",
            playbook: """
                - name: Patch
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Break web2
                      command: /bin/false
                      when: inventory_hostname == 'web2'
                    - name: Later work
                      command: /bin/true
                    - name: Forgive
                      meta: clear_host_errors
                - name: Next play
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Again
                      command: /bin/true
                """),
        DifferentialCase(
            name: "serial-end_play",
            proves: "meta end_play in a serial batch ends the play: the hosts of later batches are never reached (every task, not started), nothing failed, and the exit status is Ansible's (0)",
            playbook: """
                - name: Batches
                  hosts: web
                  gather_facts: false
                  serial: 2
                  tasks:
                    - name: Work
                      command: /bin/true
                    - name: Migrate once
                      command: /bin/true
                      run_once: true
                    - name: Stop the rollout
                      meta: end_play
                    - name: Never
                      command: /bin/true
                - name: After the rollout
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Everyone
                      command: /bin/true
                """),
        DifferentialCase(
            name: "include_role-handlers",
            proves: "handlers of a role brought in by include_role (in a loop, and through include_tasks) run on the hosts it notified, shown on their Handlers update, as Ansible runs them",
            playbook: """
                - name: Included roles
                  hosts: web
                  gather_facts: false
                  tasks:
                    - name: Apply the role
                      include_role:
                        name: service
                      loop: [1, 2]
                    - name: Through a tasks file
                      include_tasks: nested.yml
                      when: inventory_hostname in ['web1', 'web2']
                    - name: Afterwards
                      command: /bin/true
                """,
            files: [
                "roles/service/tasks/main.yml": """
                    - name: Configure
                      debug:
                        msg: configured
                      changed_when: item == 1 and inventory_hostname != 'web3'
                      notify: restart service
                    """,
                "roles/service/handlers/main.yml": """
                    - name: restart service
                      command: echo restarted
                    """,
                "roles/other/tasks/main.yml": """
                    - name: Other configure
                      command: /bin/true
                      notify: reload other
                    """,
                "roles/other/handlers/main.yml": """
                    - name: reload other
                      command: echo reloaded
                    """,
                "nested.yml": """
                    - name: Nested role
                      include_role:
                        name: other
                    """,
            ]),
    ]
}
