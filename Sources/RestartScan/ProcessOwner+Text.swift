extension ProcessOwner {
    /// What restarts a process of this owner: its unit, or who else does ("session-4.scope (its
    /// user)"); "nothing (never killed)" for a bare process. Names go through `sanitize`.
    public func restartedBy(sanitize: (String) -> String) -> String {
        switch self {
        case .service(let unit): sanitize(unit)
        case .initScript(let name): Self.initScriptFolder + sanitize(name)
        case .session(let name): sanitize(name) + " (its user)"
        case .container(let name): "container " + sanitize(name)
        case .bare: "nothing (never killed)"
        }
    }
}
