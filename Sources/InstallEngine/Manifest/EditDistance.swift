/// How far apart two words are, to suggest the key an operator probably meant.
public enum EditDistance {
    // MARK: - Suggestions

    /// The candidate closest to `word`, when one is close enough to be a plausible typo: within
    /// 2 edits, and fewer than half of `word`'s letters (so `ab` does not suggest `id`). Ties go
    /// to the earlier candidate.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = min(2, max(1, word.count / 2))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = between(word, candidate)
            if distance <= limit, distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    // MARK: - Distance

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters each count 1 (`tiemout` is one edit from `timeout`).
    static func between(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
