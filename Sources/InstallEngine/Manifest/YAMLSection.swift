/// A kind of mapping in a document a `YAMLDocumentReader` reads (a manifest's job, a policy's
/// gate), with what its messages say about it.
public protocol YAMLSection {
    /// The keys the mapping accepts, in the order the documentation shows them, which is the
    /// order an `unknown key` message lists them.
    var allowedKeys: [String] { get }
    /// Where a key is, for `unknown key `x` in update` and `missing key `id` in update`.
    var phrase: String { get }
    /// What the mapping should have been, for `expected …; got a list`.
    var expectation: String { get }
}
