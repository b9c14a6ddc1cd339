extension PendingSnapshot {
    /// This snapshot as it stands once `installed` (package names) reached their new versions:
    /// what a job of this engine, or a transaction it watched, just did, before the snapshot
    /// read afterwards says it from apt. They leave the pending and held-back lists, and the
    /// half-way ones (a `dpkg --configure -a` finished them); nothing else changes, its
    /// `computedAt` included: it is the old reading with the job's outcome applied, shown while
    /// the new reading is computed (`PendingState.computing`). A package the job failed is not
    /// in `installed`: where dpkg left it is known only to the next reading.
    public func assuming(installed: Set<String>) -> PendingSnapshot {
        guard problem == nil, !installed.isEmpty else { return self }
        var snapshot = self
        snapshot.packages.removeAll { installed.contains($0.name) }
        snapshot.heldBack.removeAll { installed.contains($0.name) }
        // `lab-app: half-configured`: the name up to its colon (no package name has one).
        snapshot.notFullyInstalled.removeAll { installed.contains(String($0.prefix { $0 != ":" })) }
        return snapshot
    }
}
