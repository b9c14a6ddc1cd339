extension Tag {
    /// A tag's name: `tag:yaml.org,2002:str` and the others of YAML 1.1's types, any name
    /// written in the document (`!local`), or the two special names below.
    public struct Name: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public init(stringLiteral value: String) {
            rawValue = value
        }

        /// No tag written: resolved by the scalar's text (`yes` is a bool) or the node's kind.
        public static let implicit: Name = ""
        /// `!` written: never resolved by the text; a scalar is a `str`, a mapping a `map`.
        public static let nonSpecific: Name = "!"

        public static let str: Name = "tag:yaml.org,2002:str"
        public static let seq: Name = "tag:yaml.org,2002:seq"
        public static let map: Name = "tag:yaml.org,2002:map"
        public static let bool: Name = "tag:yaml.org,2002:bool"
        public static let float: Name = "tag:yaml.org,2002:float"
        public static let null: Name = "tag:yaml.org,2002:null"
        public static let int: Name = "tag:yaml.org,2002:int"
        public static let merge: Name = "tag:yaml.org,2002:merge"
        public static let timestamp: Name = "tag:yaml.org,2002:timestamp"
        public static let value: Name = "tag:yaml.org,2002:value"
    }
}
