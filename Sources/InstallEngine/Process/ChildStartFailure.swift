/// Why a program could not be started on pipes or a pseudo-terminal (`PipedChild`,
/// `PseudoTerminalChild`): `cannot run ssh: No such file or directory`.
public struct ChildStartFailure: Error, Sendable, CustomStringConvertible {
    public var description: String

    /// The program `arguments` name (`arguments[0]`) and the file that runs it, a path as
    /// given or the name found in `environment`'s `PATH`.
    /// - Throws: a failure naming the program when `arguments` is empty, or the program is
    ///   missing or not executable.
    static func program(of arguments: [String], in environment: ChildEnvironment) throws(ChildStartFailure) -> (name: String, executable: String) {
        guard let name = arguments.first else { throw ChildStartFailure(description: "cannot run an empty command") }
        switch ExecutableLookup.resolve(name, searchPath: environment.searchPath, workingDirectory: nil) {
        case .success(let path): return (name, path)
        case .failure(let error): throw ChildStartFailure(description: "cannot run \(name): \(error.description)")
        }
    }
}
