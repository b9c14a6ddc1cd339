"""installtop's dnf helper as modules, each with one job; installtop-dnf.py beside this folder
is the script installtop runs, and its header is the protocol.

Read before dnf and rpm are imported (they import nothing of either), so that the entry script
can block the stop signals, read the request and make the private HOME first:
  protocol       exit statuses, HelperError, the writer of the JSON Lines
  request        the command line, and undo's two item forms
  stop           what SIGINT and SIGTERM mean at each stage
  private_home   the HOME whose .rpmmacros puts rpm's database in the installroot
Imported after them (by main):
  items          the item events, their tokens, the --expect check
  capture        scriptlet output on descriptors 1 and 2, caught in files
  progress       download and rpm callbacks as events
  locks          dnf's and rpm's locks
  configuration  dnf's configuration and repositories for the request
  marking        the request (and undo's items) marked in dnf's goal
  rebuild        an installed package built anew (rpmrebuild's way), for --keep-into
  keeper         --keep-into: kept and not-kept
  transaction    from resolving to the final events
  main           the work as a whole and its exit status

Nothing here imports anything but the standard library and dnf's and rpm's own bindings: the
helper runs with the system's python3.
"""
