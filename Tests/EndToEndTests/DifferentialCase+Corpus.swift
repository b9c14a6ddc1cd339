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
    ]
}
