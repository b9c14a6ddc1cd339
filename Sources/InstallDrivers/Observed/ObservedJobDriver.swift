import InstallEngine

/// The driver of an observed job (rule 28): it runs nothing; the transaction another program
/// runs feeds it through the relay's messages.
public struct ObservedJobDriver: JobDriver {
    let transaction: ObservedTransaction

    public init(transaction: ObservedTransaction) {
        self.transaction = transaction
    }

    /// Without apt's plan, packages dpkg names later are added to the job (rule 28).
    public var addsUpdates: Bool { transaction.addsPackages }

    public func start(_ request: DriverRunRequest, reporter: any DriverReporter) -> any RunningDriver {
        transaction.attach(reporter)
        return ObservedRunningDriver(transaction: transaction)
    }
}
