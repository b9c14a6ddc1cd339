extension InstallationResult {
    /// `3 lines ignored, 1 protocol error, 2 lines dropped`, as `status`, the monitor and the
    /// plain summary say it; `nil` when nothing was ignored or dropped.
    public var ignoredLinesText: String? {
        var parts: [String] = []
        if ignoredLines > 0 { parts.append("\(ignoredLines) line\(ignoredLines == 1 ? "" : "s") ignored") }
        if protocolErrors > 0 { parts.append("\(protocolErrors) protocol error\(protocolErrors == 1 ? "" : "s")") }
        if droppedLines > 0 { parts.append("\(droppedLines) line\(droppedLines == 1 ? "" : "s") dropped") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
