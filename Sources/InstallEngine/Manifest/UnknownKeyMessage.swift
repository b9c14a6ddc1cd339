/// The one wording of an unknown key in a manifest or a patch policy: where it is, the keys
/// that place takes, and the nearest one when it is a plausible typo.
public enum UnknownKeyMessage {
    /// `unknown key `colour` in update; expected one of: id, …; did you mean `…`?`. `phrase`
    /// says where (`in update`, `at the top level`); `allowed` in the order documentation shows.
    public static func text(for name: String, phrase: String, allowed: [String]) -> String {
        var message = "unknown key `\(name)` \(phrase); expected one of: " + allowed.joined(separator: ", ")
        if let suggestion = EditDistance.closest(to: name, among: allowed) {
            message += "; did you mean `\(suggestion)`?"
        }
        return message
    }
}
