/// ansible-playbook is neither in the package's virtual environment nor on PATH. Tests fail
/// with it rather than skip: CI installs ansible, so a missing one is a broken setup.
public struct AnsibleToolchainMissing: Error, CustomStringConvertible {
    /// The places looked at.
    public let searched: [String]

    public var description: String {
        """
        ansible-playbook not found (looked in \(searched.joined(separator: ", "))). Run Scripts/install-prerequisites test (as the test process does when it starts), or install it by hand:
            python3 -m venv .build/ansible-venv && .build/ansible-venv/bin/pip install 'ansible-core>=2.16,<2.20'
        """
    }
}
