/// How the updates pane splits a row into columns for its width: mark, title, bar, percent,
/// elapsed, ETA and status text. The title and the status text (where a failure's reason
/// shows) share what the other columns leave, the title three fifths of it (16 to 40 columns);
/// the ETA shows only when the text would keep 20 columns beside a 16-column title. What does not fit goes, in this order: the ETA, the status
/// text, the elapsed time; the bar shrinks last.
///
/// A text that must be read whole (a failure's reason, the countdown to a kill), or up to its
/// meaning (`stopping after this package`, `not started: the job was aborted`), is given the
/// room it needs where the status text shows at all: the ETA goes first, then the title
/// shrinks down to its 16 columns, then the bar to 5.
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
    /// The status text is worth more than the ETA below this width: it holds failure reasons.
    static let minimumMessageBesideETA = 20
    /// The narrowest bar.
    static let minimumBar = 5

    /// The columns for `width`; `wantedMessage` is the width of the widest text that must be
    /// read in the status column, whole or up to its meaning (0 when there is none).
    init(width: Int, wantedMessage: Int = 0) {
        var bar = width >= 90 ? 10 : 8
        let percent = 4
        var used = 2 + bar + 1 + percent + 1
        if width - used < UpdateColumns.minimumTitle {
            bar = UpdateColumns.minimumBar
            used -= 3
        }
        let elapsed = width - used - 8 >= UpdateColumns.minimumTitle ? 7 : 0
        if elapsed > 0 { used += elapsed + 1 }
        let minimum = UpdateColumns.minimumTitle
        let showsMessage = width - used - minimum >= 11
        var eta = showsMessage && width - used - minimum - 1 - 7 >= UpdateColumns.minimumMessageBesideETA ? 6 : 0
        if eta > 0 { used += eta + 1 }
        // Title, a blank, status text.
        var title = max(0, showsMessage ? min(40, max(minimum, (width - used - 1) * 3 / 5)) : width - used)
        if showsMessage, wantedMessage > width - used - title - 1 {
            if eta > 0 {
                used -= eta + 1
                eta = 0
            }
            title = max(minimum, min(title, width - used - 1 - wantedMessage))
            let short = wantedMessage - (width - used - title - 1)
            if short > 0, bar > UpdateColumns.minimumBar {
                let given = min(short, bar - UpdateColumns.minimumBar)
                bar -= given
                used -= given
            }
        }
        message = showsMessage ? width - used - title - 1 : 0
        self.title = title
        self.bar = bar
        self.percent = percent
        self.elapsed = elapsed
        self.eta = eta
    }

    /// Left edges relative to the row's start.
    var titleX: Int { 2 }
    var barX: Int { titleX + title + 1 }
    var percentX: Int { barX + bar + 1 }
    var elapsedX: Int { percentX + percent + 1 }
    var etaX: Int { elapsedX + (elapsed > 0 ? elapsed + 1 : 0) }
    var messageX: Int { etaX + (eta > 0 ? eta + 1 : 0) }
}
