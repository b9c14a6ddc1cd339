/// Finds percentages in output lines for updates with `progress: output`: the last `NN%` or
/// `NN.N%` of a line whose value is between 0 and 100 (`Progress: [ 42%]`, `Unpacking 7.5%`).
enum OutputPercentScanner {
    /// The last percentage in `line`, or `nil` when it has none.
    static func lastPercent(in line: String) -> Double? {
        guard line.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let bytes = Array(line.utf8)
        var found: Double?
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            var start = index
            var sawDot = false
            while start > 0 {
                let previous = bytes[start - 1]
                if previous >= UInt8(ascii: "0") && previous <= UInt8(ascii: "9") {
                    start -= 1
                } else if previous == UInt8(ascii: "."), !sawDot, start < index {
                    sawDot = true
                    start -= 1
                } else {
                    break
                }
            }
            guard start < index, bytes[start] != UInt8(ascii: "."),
                  let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)),
                  value <= 100
            else { continue }
            found = value
        }
        return found
    }
}
