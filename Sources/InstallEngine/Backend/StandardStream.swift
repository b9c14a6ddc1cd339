/// Which of the child's output streams a line came from.
public enum StandardStream: String, Sendable, Hashable {
    case stdout
    case stderr
}
