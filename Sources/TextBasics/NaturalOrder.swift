/// The order people expect of names with numbers in them (`web2` before `web10`), without
/// case (`Web1` beside `web1`): what Foundation's `localizedStandardCompare` gave, for the
/// names installtop sorts (hosts, packages), with no locale.
public enum NaturalOrder {
    /// Whether `a` sorts before `b`: runs of ASCII digits compare as numbers (leading zeros
    /// ignored, then the shorter run first), everything else by lowercased character; equal
    /// names under that rule fall back to plain `<` so that the order is total.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        var left = a.unicodeScalars[...], right = b.unicodeScalars[...]
        while let l = left.first, let r = right.first {
            if isDigit(l) && isDigit(r) {
                let leftRun = left.prefix(while: isDigit), rightRun = right.prefix(while: isDigit)
                let leftNumber = leftRun.drop { $0 == "0" }, rightNumber = rightRun.drop { $0 == "0" }
                if leftNumber.count != rightNumber.count { return leftNumber.count < rightNumber.count }
                if let (x, y) = zip(leftNumber, rightNumber).first(where: { $0 != $1 }) { return x.value < y.value }
                left = left.dropFirst(leftRun.count)
                right = right.dropFirst(rightRun.count)
                continue
            }
            let x = String(l).lowercased(), y = String(r).lowercased()
            if x != y { return x < y }
            left = left.dropFirst()
            right = right.dropFirst()
        }
        if left.isEmpty != right.isEmpty { return left.isEmpty }
        return a < b
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
