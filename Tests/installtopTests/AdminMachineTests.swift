import Testing
@testable import installtop

/// The machine a patch night runs on, which it never reboots: told apart by boot id, or by a
/// name resolving to one of its addresses. Numeric names only, so no lookup leaves the machine.
@Suite("Patch night: never this machine")
struct AdminMachineTests {
    @Test("A host whose boot id is this machine's is this machine, whatever its name")
    func sameBootID() {
        #expect(AdminMachine.sameness(host: "192.0.2.7", hostBootID: "0c1d", ownBootID: "0c1d") == "its boot id, 0c1d, is this machine's")
    }

    @Test("A name that resolves to loopback is this machine, even with another boot id")
    func loopback() {
        #expect(AdminMachine.sameness(host: "127.0.0.1", hostBootID: "a", ownBootID: "b") == "its name resolves to 127.0.0.1, an address of this machine")
        #expect(AdminMachine.sameness(host: "::1", hostBootID: "a", ownBootID: "b") == "its name resolves to ::1, an address of this machine")
    }

    @Test("An address of one of this machine's interfaces is this machine")
    func ownInterface() throws {
        let own = AdminMachine.localAddresses()
        let address = try #require(own.sorted().first, "this machine has at least its loopback")
        #expect(AdminMachine.sameness(host: address, hostBootID: "a", ownBootID: "b") != nil)
    }

    @Test("Another address with another boot id is another machine; so is an unknown boot id of this machine")
    func another() {
        #expect(AdminMachine.sameness(host: "192.0.2.7", hostBootID: "a", ownBootID: "b") == nil)
        #expect(AdminMachine.sameness(host: "192.0.2.7", hostBootID: "a", ownBootID: nil) == nil)
        // This machine's own id, as the kernel gives it: a UUID.
        #expect(AdminMachine.bootID()?.count == 36)
    }
}
