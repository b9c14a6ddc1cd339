/// Where text sits in a wider space.
public enum TextAlignment: Sendable, Hashable {
    /// Flush left, blanks after.
    case left
    /// Flush right, blanks before.
    case right
    /// Centred; an odd leftover column goes to the right.
    case center
}
