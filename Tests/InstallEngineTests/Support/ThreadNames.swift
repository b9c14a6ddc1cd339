import Foundation

/// The names of this process's threads as the kernel shows them (`comm`, at most 15
/// characters, newline trimmed): how the engine's tests tell which thread ran something.
enum ThreadNames {
    /// The name of the calling thread.
    static var current: String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    /// The names of every thread of the process now.
    static var all: [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) }
    }
}
