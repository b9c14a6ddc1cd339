#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON text installtop writes for a person or a script to read line by line (the history's
/// listings, the texts it keeps in its columns): one line, keys sorted, `/` not escaped.
public enum SortedKeysJSON {
    /// `value` as such a line, without a newline.
    /// - Throws: what `JSONEncoder` throws for a value it cannot encode (a non-finite number);
    ///   strings, integers and booleans always encode.
    public static func text(of value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
