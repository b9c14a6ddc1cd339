/// How the updates pane splits a row into columns for its width: mark, title, bar, percent,
/// elapsed, ETA and status text. Narrow panes drop the ETA first, then the status text, then
/// the elapsed time, and finally shrink the bar.
struct UpdateColumns: Hashable {
    /// Each column's width; 0 when dropped. The mark takes 1 column and a blank follows every
    /// column but the last.
    let title: Int
    let bar: Int
    let percent: Int
    let elapsed: Int
    let eta: Int
    let message: Int

    static let minimumTitle = 16

    init(width: Int) {
        var bar = width >= 90 ? 10 : 8
        let percent = 4
        var elapsed = 7
        var eta = 6
        var message = 10
        func fixed() -> Int {
            2 + bar + 1 + percent + 1 + (elapsed > 0 ? elapsed + 1 : 0) + (eta > 0 ? eta + 1 : 0)
                + (message > 0 ? message + 1 : 0)
        }
        if fixed() + UpdateColumns.minimumTitle > width { eta = 0 }
        if fixed() + UpdateColumns.minimumTitle > width { message = 0 }
        if fixed() + UpdateColumns.minimumTitle > width { elapsed = 0 }
        if fixed() + UpdateColumns.minimumTitle > width { bar = 5 }
        let available = max(0, width - fixed())
        let title: Int
        if message > 0 {
            // Titles get up to 40 columns; the status text takes the rest.
            title = max(UpdateColumns.minimumTitle, min(40, available * 2 / 3, width * 3 / 10))
            message += available - title
        } else {
            title = available
        }
        self.title = title
        self.bar = bar
        self.percent = percent
        self.elapsed = elapsed
        self.eta = eta
        self.message = message
    }

    /// Left edges relative to the row's start.
    var titleX: Int { 2 }
    var barX: Int { titleX + title + 1 }
    var percentX: Int { barX + bar + 1 }
    var elapsedX: Int { percentX + percent + 1 }
    var etaX: Int { elapsedX + (elapsed > 0 ? elapsed + 1 : 0) }
    var messageX: Int { etaX + (eta > 0 ? eta + 1 : 0) }
}
