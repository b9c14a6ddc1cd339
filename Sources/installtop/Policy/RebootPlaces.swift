import Dispatch

/// The night's reboot places (`reboot.at_once`), shared by every host's step: a host takes one
/// before its reboot command and gives it back once it is back (or given up on), so that no
/// more hosts than that are down at once. Host steps run on threads of their own, so waiting
/// blocks that thread only.
final class RebootPlaces: Sendable {
    private let places: DispatchSemaphore

    init(count: Int) {
        places = DispatchSemaphore(value: max(1, count))
    }

    /// Takes a place, waiting up to `seconds` for one to be free; `false` when none was.
    func take(waitingAtMost seconds: Int) -> Bool {
        places.wait(timeout: .now() + .seconds(max(0, seconds))) == .success
    }

    /// Gives a place taken with `take` back.
    func give() {
        places.signal()
    }
}
