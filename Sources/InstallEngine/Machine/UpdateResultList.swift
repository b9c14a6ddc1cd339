/// The results of a job's updates, kept in chunks of `chunkSize`.
///
/// Every progress snapshot (`InstallationProgress`) shares the machine's results, and a
/// snapshot lives until its callback has been delivered, which is often after the machine's
/// next change. With one flat array that change copied every result of the job (copy-on-write),
/// so a driver job of n packages cost O(n²); here it copies the list of chunks (one reference
/// per chunk) and the one chunk it touches.
///
/// The layout depends only on the count (every chunk full but the last), so the synthesized
/// `Hashable` compares results one by one, as an array's would.
struct UpdateResultList: Sendable, Hashable, RandomAccessCollection, MutableCollection {
    /// Small enough that copying a chunk is cheap, large enough that the list of chunks is short.
    static let chunkSize = 32

    private var chunks: [[UpdateInstallationResult]]
    private(set) var endIndex: Int

    init(_ results: [UpdateInstallationResult]) {
        endIndex = results.count
        chunks = stride(from: 0, to: results.count, by: Self.chunkSize).map {
            Array(results[$0..<Swift.min($0 + Self.chunkSize, results.count)])
        }
    }

    var startIndex: Int { 0 }

    /// Adds `result` after the last one (an update a driver adds to its job, rule 28).
    mutating func append(_ result: UpdateInstallationResult) {
        if endIndex % Self.chunkSize == 0 {
            chunks.append([result])
        } else {
            chunks[chunks.count - 1].append(result)
        }
        endIndex += 1
    }

    subscript(position: Int) -> UpdateInstallationResult {
        get {
            precondition(indices.contains(position), "update result index out of range")
            return chunks[position / Self.chunkSize][position % Self.chunkSize]
        }
        set {
            precondition(indices.contains(position), "update result index out of range")
            chunks[position / Self.chunkSize][position % Self.chunkSize] = newValue
        }
    }
}
