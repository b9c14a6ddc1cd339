extension YamlError {
    /// What libyaml was reading when it found the problem (`while scanning a quoted scalar`),
    /// and where that began.
    public struct Context: Sendable, CustomStringConvertible {
        public let text: String
        public let mark: Mark

        public init(text: String, mark: Mark) {
            self.text = text
            self.mark = mark
        }

        /// `TEXT in line L, column C` and a newline, as Yams writes it.
        public var description: String { text + " in line \(mark.line), column \(mark.column)\n" }
    }
}
