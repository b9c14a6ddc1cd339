import CNcursesw
import Glibc
import Synchronization
import TerminalUI

// MARK: - Process-wide state shared with signal handlers

/// Bit n is set when signal n arrived since the last `takeSignals()`.
private let pendingSignals = Atomic<UInt64>(0)
/// Write end of the signal self-pipe, or -1 while no terminal is started.
private let signalPipeWriteEnd = Atomic<Int32>(-1)
/// True while curses owns the screen: the crash and exit handlers call `endwin()` only then.
private let cursesActive = Atomic<Bool>(false)
/// Only one `CursesTerminal` may own the terminal (signal handlers are process-wide).
private let terminalClaimed = Atomic<Bool>(false)
private let exitHandlerRegistered = Atomic<Bool>(false)

/// The signals that become events for the app instead of killing it.
private let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
/// The signals after which the terminal is restored before the previous handler runs.
private let crashSignals: [Int32] = [SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTRAP]

/// The crash signals' previous actions, indexed by signal number, for the crash handler.
/// nonisolated(unsafe): each entry is written by `sigaction` when the handler for that signal is
/// installed (the kernel stores the old action before the new one can run) and only read by
/// that handler afterwards; the storage is never freed, so a late signal never reads freed memory.
private nonisolated(unsafe) let savedCrashActions: UnsafeMutablePointer<sigaction> = {
    let storage = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    storage.initialize(repeating: sigaction(), count: 65)
    return storage
}()

/// SIGINT, SIGTERM, SIGHUP: async-signal-safe bookkeeping only (an atomic and one `write`).
private func recordSignal(_ signal: Int32) {
    let savedErrno = errno
    pendingSignals.bitwiseOr(UInt64(1) << UInt64(signal), ordering: .relaxed)
    let descriptor = signalPipeWriteEnd.load(ordering: .relaxed)
    if descriptor >= 0 {
        var byte: UInt8 = 0
        _ = write(descriptor, &byte, 1)
    }
    errno = savedErrno
}

/// A crash: give the terminal back, then let the previous handler (Swift's backtracer, or the
/// default action) see the same signal, as htop's CRT.c does.
private func restoreTerminalAndReraise(_ signal: Int32) {
    if cursesActive.load(ordering: .relaxed) {
        endwin()
    }
    sigaction(signal, savedCrashActions + Int(signal), nil)
    raise(signal)
}

/// Normal exit with the screen still in curses mode (the app forgot `stop()`).
private func endCursesAtExit() {
    if cursesActive.exchange(false, ordering: .relaxed) {
        endwin()
    }
}

// MARK: - CursesTerminal

/// The terminal, through ncursesw: the only code that talks to curses. It sets the terminal up
/// and gives it back (also on SIGINT/SIGTERM/SIGHUP, crashes and exit), shows `Buffer`s by
/// sending only the cells that changed, and reads keys without blocking.
///
/// curses is not thread-safe: create, use and stop the terminal on one thread (the app's UI
/// loop), never from concurrent tasks. Typical loop: `poll()` on `inputDescriptor` and
/// `signalDescriptor` (and the app's own wake-up pipe), then `readKeys()`, `takeSignals()`,
/// render, `draw(_:)`.
public final class CursesTerminal {
    /// True between a successful `start()` and `stop()`.
    public private(set) var isActive = false
    /// True between `suspend()` and `resume()`: curses is out of the way and draws nothing.
    public private(set) var isSuspended = false
    /// Whether the locale (set from the environment by `start()`) uses UTF-8; when false the app
    /// should draw with `GlyphSet.ascii` and sanitize text in `.ascii` mode.
    public private(set) var isUTF8Locale = false
    /// What the terminal can show. `NO_COLOR` is not considered here: the app handles it.
    public private(set) var colorCapability: ColorCapability = .none
    /// Columns and rows, updated by `start()` and when `readKeys()` returns `.resize`.
    public private(set) var size: (width: Int, height: Int) = (0, 0)
    /// Standard input, for the app's `poll()`; readable when keys may be waiting.
    public let inputDescriptor: Int32 = 0
    /// Read end of the signal self-pipe, for the app's `poll()`: readable after SIGINT, SIGTERM
    /// or SIGHUP; then call `takeSignals()`. -1 when not started.
    public private(set) var signalDescriptor: Int32 = -1

    private var screen: OpaquePointer?
    private var previous: Buffer?
    private var needsFullRedraw = true
    private var hasDefaultColors = false
    private var pairs: [UInt64: Int32] = [:]
    private var nextPair: Int32 = 1
    private var pairsExhausted = false
    private var lastRendition: (style: Style, attributes: attr_t, pair: Int32)?
    private var savedTerminationActions: [Int32: sigaction] = [:]
    private var maxScalarsPerCell = 5
    /// Room for one cell's scalars plus the terminating 0, reused for every cell.
    private var wideCharacters = [wchar_t](repeating: 0, count: 8)

    /// A terminal that does nothing until `start()`.
    public init() {}

    deinit {
        stop()
    }

    // MARK: - Lifecycle

    /// Takes over the terminal: locale from the environment, curses screen, cbreak without echo,
    /// keypad keys, non-blocking input, hidden cursor, colours (with the terminal's default
    /// colours when it supports them), and the signal and exit handlers.
    ///
    /// Throws, leaving everything as it was, when standard input or output is not a terminal,
    /// curses cannot handle `TERM`, another instance is active, or the signal pipe fails.
    /// - Precondition: not already started.
    public func start() throws(CursesTerminalError) {
        precondition(!isActive, "CursesTerminal.start() called while active")
        guard isatty(0) == 1, isatty(1) == 1 else { throw .notATerminal }
        guard terminalClaimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { throw .alreadyInUse }
        setlocale(LC_ALL, "")
        isUTF8Locale = CursesTerminal.localeIsUTF8()
        do {
            try installSignalHandlers()
        } catch {
            terminalClaimed.store(false, ordering: .releasing)
            throw error
        }
        // newterm rather than initscr: it returns nil instead of exiting on an unknown TERM.
        // Our SIGINT/SIGTERM handlers are installed first so curses leaves them alone.
        guard let screen = newterm(nil, cnc_stdout(), cnc_stdin()) else {
            restoreSignalHandlers()
            terminalClaimed.store(false, ordering: .releasing)
            throw .unsupportedTerminal(term: getenv("TERM").map { String(cString: $0) })
        }
        self.screen = screen
        let window = cnc_stdscr()
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        nodelay(window, true)
        leaveok(window, true)
        set_escdelay(25)
        defineCommonKeySequences()
        curs_set(0)
        setUpColors()
        maxScalarsPerCell = Int(cnc_ccharw_max())
        cursesActive.store(true, ordering: .releasing)
        if !exitHandlerRegistered.exchange(true, ordering: .relaxed) {
            atexit { endCursesAtExit() }
        }
        isActive = true
        previous = nil
        needsFullRedraw = true
        updateSize()
    }

    /// Gives the terminal back: leaves curses mode (echo, canonical input and the cursor come
    /// back), restores the previous signal handlers and closes the signal pipe. Does nothing
    /// when not started; safe to call twice. A new `CursesTerminal` may start afterwards.
    public func stop() {
        guard isActive else { return }
        isActive = false
        isSuspended = false
        cursesActive.store(false, ordering: .releasing)
        endwin()
        if let screen {
            delscreen(screen)
            self.screen = nil
        }
        restoreSignalHandlers()
        pairs = [:]
        nextPair = 1
        lastRendition = nil
        previous = nil
        terminalClaimed.store(false, ordering: .releasing)
    }

    /// Gives the terminal back for a while (the board's shell on a host): leaves curses mode as
    /// `stop()` does (the normal screen, echo and canonical input, the cursor), keeping curses'
    /// screen, the colours and the signal handlers, so SIGINT, SIGTERM and SIGHUP still become
    /// events. Does nothing when not started or already suspended.
    public func suspend() {
        guard isActive, !isSuspended else { return }
        isSuspended = true
        cursesActive.store(false, ordering: .releasing)
        endwin()
    }

    /// Takes the terminal back after `suspend()`: curses mode again (its screen, keypad and
    /// hidden cursor), and the next `draw` repaints every cell on a cleared screen, whatever the
    /// terminal shows now. A resize while suspended arrives as a `.resize` key. Does nothing
    /// unless suspended.
    public func resume() {
        guard isActive, isSuspended else { return }
        isSuspended = false
        reset_prog_mode()
        clearok(cnc_stdscr(), true)
        CNcursesw.refresh()
        curs_set(0)
        cursesActive.store(true, ordering: .releasing)
        updateSize()
        previous = nil
        needsFullRedraw = true
    }

    /// The glyphs to draw with in this locale.
    public var glyphs: GlyphSet { isUTF8Locale ? .unicode : .ascii }

    // MARK: - Drawing

    /// Shows `buffer`, sending only the cells that differ from the previous `draw` (everything
    /// after start, a resize or `invalidate()`), then updates the screen once. Cells beyond the
    /// screen are clipped; a buffer smaller than the screen leaves the rest blank. Colours are
    /// approximated for `colorCapability`. Does nothing when not started.
    public func draw(_ buffer: Buffer) {
        guard isActive, !isSuspended else { return }
        let window = cnc_stdscr()
        if pairsExhausted {
            // A frame needed more colour pairs than the terminal has: start the cache afresh.
            pairs = [:]
            nextPair = 1
            lastRendition = nil
            pairsExhausted = false
            needsFullRedraw = true
        }
        let full = needsFullRedraw || previous?.width != buffer.width || previous?.height != buffer.height
        if full {
            werase(window)
        }
        let columns = size.width
        let rows = size.height
        buffer.forEachCell(changedFrom: full ? nil : previous) { x, y, cell in
            if x < columns, y < rows {
                put(cell, x: x, y: y, lastColumn: columns - 1, window: window)
            }
        }
        wnoutrefresh(window)
        doupdate()
        previous = buffer
        needsFullRedraw = false
    }

    /// Forgets what the screen shows: the next `draw` repaints every cell and clears the
    /// physical screen first (after something else wrote to the terminal).
    public func invalidate() {
        needsFullRedraw = true
        if isActive {
            clearok(cnc_stdscr(), true)
        }
    }

    private func put(_ cell: Cell, x: Int, y: Int, lastColumn: Int, window: CNCWindowRef?) {
        if cell.width == 2, x == lastColumn {
            // A buffer wider than the screen: half a wide glyph would wrap, show a blank.
            put(Cell(style: cell.style), x: x, y: y, lastColumn: lastColumn, window: window)
            return
        }
        let (attributes, pair) = rendition(for: cell.style)
        var blankAfter = false
        let maxScalars = maxScalarsPerCell
        wideCharacters.withUnsafeMutableBufferPointer { characters in
            if let ascii = cell.asciiValue {
                characters[0] = wchar_t(ascii)
                characters[1] = 0
            } else {
                let glyph = TerminalGlyph.fit(cell, maxScalars: maxScalars) { Int(wcwidth(wchar_t(bitPattern: $0.value))) }
                blankAfter = glyph.blankAfter
                let count = min(glyph.cell.scalarCount, characters.count - 1)
                for index in 0..<count {
                    characters[index] = wchar_t(bitPattern: glyph.cell.scalar(at: index).value)
                }
                characters[count] = 0
            }
            CursesTerminal.addCharacter(characters.baseAddress, attributes: attributes, pair: pair, x: x, y: y, window: window)
            if blankAfter, x < lastColumn {
                characters[0] = 0x20
                characters[1] = 0
                CursesTerminal.addCharacter(characters.baseAddress, attributes: attributes, pair: pair, x: x + 1, y: y, window: window)
            }
        }
    }

    /// Writes one cell. Writing the bottom-right cell returns ERR because the cursor cannot
    /// advance past it; the cell is written all the same, so the result is ignored.
    private static func addCharacter(
        _ characters: UnsafePointer<wchar_t>?, attributes: attr_t, pair: Int32, x: Int, y: Int, window: CNCWindowRef?
    ) {
        var complex = cchar_t()
        var extendedPair = pair
        setcchar(&complex, characters, attributes, 0, &extendedPair)
        _ = mvwadd_wch(window, Int32(y), Int32(x), &complex)
    }

    // MARK: - Colours

    private func setUpColors() {
        hasDefaultColors = false
        colorCapability = .none
        guard has_colors() else { return }
        start_color()
        hasDefaultColors = use_default_colors() == OK
        let colors = cnc_colors()
        switch colors {
        case 0x100_0000...: colorCapability = .direct
        case 256...: colorCapability = .indexed256
        case 16...: colorCapability = .basic16
        case 8...: colorCapability = .basic8
        default: colorCapability = .none
        }
    }

    /// Attributes and colour pair for a style; the last one is remembered because neighbouring
    /// cells usually share their style.
    private func rendition(for style: Style) -> (attr_t, Int32) {
        if let last = lastRendition, last.style == style {
            return (last.attributes, last.pair)
        }
        let shown = style.approximated(for: colorCapability)
        var attributes = cnc_a_normal()
        if shown.bold { attributes |= cnc_a_bold() }
        if shown.dim { attributes |= cnc_a_dim() }
        if shown.reverse { attributes |= cnc_a_reverse() }
        if shown.underline { attributes |= cnc_a_underline() }
        var pair: Int32 = 0
        if colorCapability != .none {
            pair = pairNumber(
                foreground: colorNumber(shown.foreground, isForeground: true),
                background: colorNumber(shown.background, isForeground: false)
            )
        }
        lastRendition = (style, attributes, pair)
        return (attributes, pair)
    }

    /// The curses colour number of an already approximated colour.
    private func colorNumber(_ color: Color, isForeground: Bool) -> Int32 {
        if color == .default {
            return hasDefaultColors ? -1 : (isForeground ? COLOR_WHITE : COLOR_BLACK)
        }
        guard colorCapability == .direct else { return Int32(color.paletteIndex ?? 0) }
        // Direct-colour terminfo (xterm-direct) keeps 0–7 for the ANSI colours and reads every
        // larger number as 0xRRGGBB, so bright and palette colours are sent as RGB.
        if let index = color.paletteIndex, index < 8 { return Int32(index) }
        let (red, green, blue) = color.rgbComponents
        return max(8, Int32(red) << 16 | Int32(green) << 8 | Int32(blue))
    }

    private func pairNumber(foreground: Int32, background: Int32) -> Int32 {
        if foreground == -1, background == -1 { return 0 }
        let key = UInt64(UInt32(bitPattern: foreground)) << 32 | UInt64(UInt32(bitPattern: background))
        if let pair = pairs[key] { return pair }
        guard nextPair < cnc_color_pairs() else {
            pairsExhausted = true
            return 0
        }
        guard init_extended_pair(nextPair, foreground, background) == OK else { return 0 }
        pairs[key] = nextPair
        nextPair += 1
        return nextPair - 1
    }

    // MARK: - Input

    /// Every key waiting, without blocking (empty when none, or when not started). A
    /// `.resize` has already updated `size` and makes the next `draw` repaint everything.
    /// Keys curses reports that the app has no use for (mouse, unusual function keys) are
    /// skipped.
    public func readKeys() -> [Key] {
        guard isActive, !isSuspended else { return [] }
        let window = cnc_stdscr()
        var keys: [Key] = []
        var value: wint_t = 0
        while true {
            let status = wget_wch(window, &value)
            if status == ERR { break }
            if status == cnc_key_code_yes() {
                if let key = functionKey(Int32(bitPattern: value)) {
                    keys.append(key)
                }
            } else if let scalar = Unicode.Scalar(value), let key = Key(scalar: scalar) {
                keys.append(key)
            }
        }
        return keys
    }

    /// Teaches curses the common sequences of the navigation keys that `TERM`'s description
    /// lacks (`KeyEscapeSequences`: End as `ESC [ 4 ~` under tmux), so they arrive as keys and
    /// not as Escape and text. A sequence curses knows already, or that would clash with one it
    /// knows, is left alone.
    private func defineCommonKeySequences() {
        for (sequence, key) in KeyEscapeSequences.all {
            guard let code = Self.keyCode(for: key), key_defined(sequence) == 0 else { continue }
            _ = define_key(sequence, code)
        }
    }

    /// The curses code of a navigation or editing key; `nil` for the others.
    private static func keyCode(for key: Key) -> Int32? {
        switch key {
        case .up: return cnc_key_up()
        case .down: return cnc_key_down()
        case .left: return cnc_key_left()
        case .right: return cnc_key_right()
        case .pageUp: return cnc_key_ppage()
        case .pageDown: return cnc_key_npage()
        case .home: return cnc_key_home()
        case .end: return cnc_key_end()
        case .insert: return cnc_key_ic()
        case .delete: return cnc_key_dc()
        default: return nil
        }
    }

    private func functionKey(_ code: Int32) -> Key? {
        switch code {
        case cnc_key_up(): return .up
        case cnc_key_down(): return .down
        case cnc_key_left(): return .left
        case cnc_key_right(): return .right
        case cnc_key_ppage(): return .pageUp
        case cnc_key_npage(): return .pageDown
        case cnc_key_home(): return .home
        case cnc_key_end(): return .end
        case cnc_key_ic(): return .insert
        case cnc_key_dc(): return .delete
        case cnc_key_backspace(): return .backspace
        case cnc_key_enter(): return .enter
        case cnc_key_btab(): return .backTab
        case cnc_key_resize():
            updateSize()
            needsFullRedraw = true
            return .resize
        case cnc_key_f(1)...cnc_key_f(63): return .function(Int(code - cnc_key_f0()))
        default: return nil
        }
    }

    private func updateSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        cnc_getmaxyx(cnc_stdscr(), &rows, &columns)
        size = (Int(max(0, columns)), Int(max(0, rows)))
    }

    // MARK: - Signals

    /// The termination signals (SIGINT, SIGTERM, SIGHUP) received since the last call, in
    /// increasing order, each once; empties the signal pipe.
    public func takeSignals() -> [Int32] {
        if signalDescriptor >= 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(signalDescriptor, &drain, drain.count) > 0 {}
        }
        let mask = pendingSignals.exchange(0, ordering: .acquiringAndReleasing)
        return (1..<64).filter { mask & (UInt64(1) << UInt64($0)) != 0 }.map { Int32($0) }
    }

    private func installSignalHandlers() throws(CursesTerminalError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw .signalPipe(errno: errno) }
        for descriptor in descriptors {
            // Non-blocking: a full pipe must never block the handler, nor an empty one the drain.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        // Every global a handler reads is touched here first, so that Swift's lazy global
        // initialisation never runs inside a handler.
        signalDescriptor = descriptors[0]
        signalPipeWriteEnd.store(descriptors[1], ordering: .releasing)
        _ = pendingSignals.exchange(0, ordering: .relaxed)
        cursesActive.store(false, ordering: .relaxed)

        var record = sigaction()
        record.__sigaction_handler.sa_handler = { recordSignal($0) }
        sigemptyset(&record.sa_mask)
        record.sa_flags = SA_RESTART
        for signal in terminationSignals {
            var old = sigaction()
            sigaction(signal, &record, &old)
            savedTerminationActions[signal] = old
        }

        var crash = sigaction()
        crash.__sigaction_handler.sa_handler = { restoreTerminalAndReraise($0) }
        sigemptyset(&crash.sa_mask)
        crash.sa_flags = 0
        for signal in crashSignals {
            sigaction(signal, &crash, savedCrashActions + Int(signal))
        }
    }

    private func restoreSignalHandlers() {
        for signal in crashSignals {
            sigaction(signal, savedCrashActions + Int(signal), nil)
        }
        for (signal, var action) in savedTerminationActions {
            sigaction(signal, &action, nil)
        }
        savedTerminationActions = [:]
        let writeEnd = signalPipeWriteEnd.exchange(-1, ordering: .acquiringAndReleasing)
        if writeEnd >= 0 { close(writeEnd) }
        if signalDescriptor >= 0 { close(signalDescriptor) }
        signalDescriptor = -1
    }

    // MARK: - Locale

    private static func localeIsUTF8() -> Bool {
        guard let codeset = cnc_codeset() else { return false }
        let name = String(cString: codeset).lowercased()
        return name == "utf-8" || name == "utf8"
    }
}

/// The terminal belongs to one thread; see the type's documentation.
@available(*, unavailable)
extension CursesTerminal: Sendable {}
