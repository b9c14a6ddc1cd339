/// What a stream of terminal output did that `TerminalModeReset` must undo with care, read
/// chunk by chunk (a sequence cut between two chunks counts): whether it left the terminal on
/// its alternate screen (the last of `CSI ? 1049/1047/47 h` and `l`), and whether it set a
/// scrolling region (`CSI Pt;Pb r`) or origin mode (`CSI ? 6 h`), whose resets move the cursor
/// home. Leaving an alternate screen that is not on would restore a cursor position saved long
/// before; either way what follows would be written over what is on the screen.
public struct TerminalModeTracker: Sendable, Hashable {
    public private(set) var alternateScreen = false
    /// A scrolling region or origin mode was set at some point.
    public private(set) var movedMargins = false
    /// The end of the previous chunk from its last ESC, for a sequence cut between two.
    private var carry: [UInt8] = []
    /// The longest control sequence looked at; a longer one is not one of these.
    private static let longest = 16

    public init() {}

    /// Reads `bytes`, the output after what came before.
    public mutating func scan<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard !bytes.isEmpty else { return }
        var window = carry
        window.append(contentsOf: bytes)
        carry = []
        var index = 0
        while let escape = window[index...].firstIndex(of: 0x1B) {
            index = escape + 1
            switch sequence(in: window, at: escape) {
            case .incomplete:
                carry = Array(window[escape...])
                return
            case .other:
                continue
            case .control(let isPrivate, let numbers, let final):
                apply(isPrivate: isPrivate, numbers: numbers, final: final)
            }
        }
    }

    private enum Sequence {
        case incomplete
        case other
        case control(isPrivate: Bool, numbers: [Int], final: UInt8)
    }

    /// The control sequence starting at `escape`: `ESC [ [?] digits;… final`.
    private func sequence(in window: [UInt8], at escape: Int) -> Sequence {
        var position = escape + 1
        guard position < window.count else { return .incomplete }
        guard window[position] == UInt8(ascii: "[") else { return .other }
        position += 1
        guard position < window.count else { return .incomplete }
        let isPrivate = window[position] == UInt8(ascii: "?")
        if isPrivate { position += 1 }
        var numbers = [0]
        while position < window.count, position - escape < Self.longest {
            let byte = window[position]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                numbers[numbers.count - 1] = min(numbers[numbers.count - 1] * 10 + Int(byte - UInt8(ascii: "0")), 100_000)
            case UInt8(ascii: ";"):
                numbers.append(0)
            default:
                return .control(isPrivate: isPrivate, numbers: numbers, final: byte)
            }
            position += 1
        }
        return position - escape < Self.longest ? .incomplete : .other
    }

    private mutating func apply(isPrivate: Bool, numbers: [Int], final: UInt8) {
        if !isPrivate, final == UInt8(ascii: "r") {
            movedMargins = true
            return
        }
        guard isPrivate, final == UInt8(ascii: "h") || final == UInt8(ascii: "l") else { return }
        let on = final == UInt8(ascii: "h")
        for number in numbers {
            if [47, 1047, 1049].contains(number) { alternateScreen = on }
            if number == 6, on { movedMargins = true }
        }
    }
}
