/// The results of a job's updates, kept in leaves of `leafSize` results, `groupSize` leaves to
/// a group.
///
/// Every progress snapshot (`InstallationProgress`) shares the machine's results, and a
/// snapshot lives until its callback has been delivered, which is often after the machine's
/// next change. With one flat array that change copied every result of the job (copy-on-write),
/// so a driver job of n packages cost O(n²); with one level of chunks it still copied one
/// reference per chunk (157 for 5,000 packages) on every start and end. Here a change copies the
/// list of groups (one reference per `leafSize × groupSize` results), one group and one leaf.
///
/// The layout depends only on the count (every leaf and group full but the last), so the
/// synthesized `Hashable` compares results one by one, as an array's would.
struct UpdateResultList: Sendable, Hashable, RandomAccessCollection, MutableCollection {
    /// Small, so copying the leaf a change touches is cheap.
    static let leafSize = 8
    /// Leaves per group: the groups of 10,000 updates are 40, and a group is 32 references.
    static let groupSize = 32
    private static let groupCapacity = leafSize * groupSize

    private var groups: [[[UpdateInstallationResult]]] = []
    private(set) var endIndex = 0

    init(_ results: [UpdateInstallationResult]) {
        for result in results { append(result) }
    }

    var startIndex: Int { 0 }

    /// Adds `result` after the last one (an update a driver adds to its job, rule 28).
    mutating func append(_ result: UpdateInstallationResult) {
        if endIndex % Self.groupCapacity == 0 {
            groups.append([[result]])
        } else if endIndex % Self.leafSize == 0 {
            groups[groups.count - 1].append([result])
        } else {
            let group = groups.count - 1
            groups[group][groups[group].count - 1].append(result)
        }
        endIndex += 1
    }

    subscript(position: Int) -> UpdateInstallationResult {
        // Lent, not copied: the machine reads a result's code on every event, and a copy
        // retains and releases each of its strings and arrays.
        _read {
            precondition(indices.contains(position), "update result index out of range")
            let inGroup = position % Self.groupCapacity
            yield groups[position / Self.groupCapacity][inGroup / Self.leafSize][inGroup % Self.leafSize]
        }
        set {
            precondition(indices.contains(position), "update result index out of range")
            let inGroup = position % Self.groupCapacity
            groups[position / Self.groupCapacity][inGroup / Self.leafSize][inGroup % Self.leafSize] = newValue
        }
    }
}
