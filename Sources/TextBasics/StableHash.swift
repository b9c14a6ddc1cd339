/// A hash of a text that is the same in every process and every run (Swift's `Hasher` is
/// seeded per process): for names made from paths, such as a night's stamp or a history's
/// revert timer, which several processes must agree on.
public enum StableHash {
    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes as 16 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
