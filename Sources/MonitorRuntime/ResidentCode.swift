import CResidentCode
import Glibc
import RestartScan

/// The code and read-only data of the program and its libraries that are mapped in memory, and
/// the free memory malloc keeps.
///
/// Most of what an idle monitor holds resident is code that ran once: argument parsing, the
/// manifest reader, the history's set-up, the engine's start. The kernel keeps every page a
/// process touched mapped (and, by its fault-around, the 64 KiB around it) until memory runs
/// short, so `VmRSS` still counts them hours later. `release()` unmaps them: the pages stay in
/// the page cache, and the next use of one maps it (and the cached pages around it) again with
/// a minor fault, no disk read. Measured on the idle monitor: 32 MiB before, 9 MiB after; a
/// key press then maps back about 4 MiB with some 160 faults.
///
/// Only pages nothing ever wrote are released: the segments an object's program headers load
/// without write permission, less its RELRO part (relocated at start, then made read-only);
/// not the vDSO, not an object with text relocations, and nothing while a debugger is attached
/// (its breakpoints are written into code pages, and releasing those would drop them).
public enum ResidentCode {
    /// Unmaps the resident pages of every loaded object's never-written segments
    /// (`MADV_DONTNEED`, which for pages never written is the same as never having touched
    /// them). Returns the bytes advised, mapped or not; 0 when it did nothing (a debugger
    /// attached).
    ///
    /// It also gives malloc's free memory back (`malloc_trim`): what the start-up and the jobs
    /// allocated and freed stays in malloc's heaps otherwise, resident (0.36 MiB of the idle
    /// monitor's 4 MiB of anonymous memory, measured); that part is done with a debugger
    /// attached too.
    @discardableResult
    public static func release() -> Int {
        crc_trim_free_heap()
        guard !isTraced() else { return 0 }
        return crc_release_unwritten_segments()
    }

    /// Keeps every large allocation of this process (128 KiB and more) mapped on its own, so
    /// that freeing it gives its memory back, for the rest of the process's life.
    ///
    /// glibc raises both thresholds each time such a block is freed, up to 32 MiB: the restart
    /// scan's buffer, which holds the largest `/proc/PID/maps` of the machine (4 MiB for a
    /// linker's), then comes from an engine thread's heap the next time, and once freed stays
    /// resident at that heap's top, which neither that heap's own trimming (its threshold raised
    /// with the other) nor `malloc_trim` gives back: 3.7 MiB of the idle monitor's, measured. A
    /// threshold set once stays put.
    public static func keepLargeAllocationsMapped() {
        crc_fix_malloc_thresholds()
    }

    /// Whether a debugger (or anything else) traces this process (`TracerPid` in its status);
    /// `true` when that cannot be read.
    private static func isTraced() -> Bool {
        guard let tracer = ProcFS().ownStatus()?.tracerPID else { return true }
        return tracer != 0
    }
}
