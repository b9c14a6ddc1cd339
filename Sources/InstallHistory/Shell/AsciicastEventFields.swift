#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An asciicast v2 event line as JSON gives it: `[seconds, "code", "data"]`, exactly three
/// elements.
struct AsciicastEventFields: Decodable {
    var time: Double
    var code: String
    var data: String

    private struct WrongCount: Error {}

    init(from decoder: any Decoder) throws {
        var array = try decoder.unkeyedContainer()
        guard array.count == 3 else { throw WrongCount() }
        time = try array.decode(Double.self)
        code = try array.decode(String.self)
        data = try array.decode(String.self)
    }
}
