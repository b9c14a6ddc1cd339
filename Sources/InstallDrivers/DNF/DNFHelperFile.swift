/// One file the dnf helper is made of, as the executable embeds it.
public struct DNFHelperFile: Sendable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}
