#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An asciicast v2 header line as JSON gives it, every field optional and read leniently (a
/// number written with a fraction is taken whole, an `env` that is not all strings is left
/// out), so `AsciicastRecording` says which field is wrong instead of the decoder.
struct AsciicastHeaderFields: Decodable {
    var version: Int?
    var width: Int?
    var height: Int?
    var timestamp: Int?
    var env: [String: String]?
    var title: String?

    private enum Key: String, CodingKey { case version, width, height, timestamp, env, title }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        func whole(_ key: Key) -> Int? {
            if let integer = try? object.decodeIfPresent(Int.self, forKey: key) { return integer }
            guard let real = try? object.decodeIfPresent(Double.self, forKey: key), real.isFinite,
                  let integer = Int(exactly: real.rounded(.towardZero)) else { return nil }
            return integer
        }
        version = whole(.version)
        width = whole(.width)
        height = whole(.height)
        timestamp = whole(.timestamp)
        env = try? object.decodeIfPresent([String: String].self, forKey: .env)
        title = try? object.decodeIfPresent(String.self, forKey: .title)
    }
}
