#ifndef C_RESIDENT_CODE_H
#define C_RESIDENT_CODE_H

/// Unmaps (MADV_DONTNEED) the whole pages of every loaded object's
/// segments that are loaded without write permission, less RELRO; skips the vDSO and objects
/// with text relocations. Returns the bytes advised.
long crc_release_unwritten_segments(void);
/// Gives the free memory of malloc's heaps back to the kernel (malloc_trim(0): the free pages
/// inside the heaps as well as its top). Returns 1 when some was released.
int crc_trim_free_heap(void);
/// Fixes malloc's thresholds at their defaults (128 KiB): an allocation that large is always
/// mapped on its own and unmapped when freed, and a heap's free top over 128 KiB is returned.
void crc_fix_malloc_thresholds(void);

#endif
