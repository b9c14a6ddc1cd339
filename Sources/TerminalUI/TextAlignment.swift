/// Where text sits in a wider space.
public enum TextAlignment: Sendable, Hashable {
    case left
    case right
    /// Centred; an odd leftover column goes to the right.
    case center
}
