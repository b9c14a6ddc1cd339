import EngineWire

/// A started `DpkgObservedSource`: the hooks' messages go to its transactions; stopping stops
/// following dpkg's log (the hooks' transactions end with their processes).
struct DpkgObservedWatch: ObservedWatch {
    let observed: ObservedTransactions
    let log: DpkgLogWatcher?

    func receive(_ report: ObservedReport) {
        observed.receive(report)
    }

    func stop() {
        log?.stop()
    }
}
