import Glibc

/// A glibc `posix_spawn_file_actions_*_np` function this libc does not have.
public struct MissingLibcFunction: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "\(name) is not in this libc" }
}

/// Closes every descriptor from `lowest` up in the child. Children of the test process must
/// not keep its other descriptors: a tmux server or installtop that inherited the write
/// descriptor of a script another test is writing makes exec of that script fail with
/// ETXTBSY ("Text file busy") for as long as it lives.
public func addCloseFrom(_ lowest: Int32, to actions: inout posix_spawn_file_actions_t) throws {
    typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    _ = try libcFunction("posix_spawn_file_actions_addclosefrom_np", Function.self)(&actions, lowest)
}

/// Changes the child's working directory before exec.
public func addChdir(_ path: String, to actions: inout posix_spawn_file_actions_t) throws {
    typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    let function = try libcFunction("posix_spawn_file_actions_addchdir_np", Function.self)
    _ = path.withCString { function(&actions, $0) }
}

/// Looked up at run time (glibc 2.29+ for chdir, 2.34+ for closefrom) because Swift's Glibc
/// module does not show these GNU extensions.
private func libcFunction<Function>(_ name: String, _ type: Function.Type) throws -> Function {
    guard let symbol = dlsym(nil, name) else { throw MissingLibcFunction(name: name) }
    return unsafeBitCast(symbol, to: type)
}
