#define _GNU_SOURCE
#include "CResidentCode.h"

#include <link.h>
#include <malloc.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

// Text relocations mean the loader wrote into code pages: releasing them would undo that.
static int has_text_relocations(const ElfW(Dyn) *entry) {
    if (entry == NULL) return 1;
    for (; entry->d_tag != DT_NULL; entry++) {
        if (entry->d_tag == DT_TEXTREL) return 1;
        if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL) != 0) return 1;
    }
    return 0;
}

static int release_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    long *advised = data;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
    // The vDSO is the kernel's own mapping, not a file's.
    if (vdso != 0 && (uintptr_t)info->dlpi_phdr - vdso < 0x10000) return 0;
    uintptr_t relro_start = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type == PT_DYNAMIC && has_text_relocations((const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr))) return 0;
        if (header->p_type == PT_GNU_RELRO) {
            relro_start = (info->dlpi_addr + header->p_vaddr) & ~(page - 1);
            relro_end = (info->dlpi_addr + header->p_vaddr + header->p_memsz + page - 1) & ~(page - 1);
        }
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W) != 0) continue;
        // Whole pages of the segment's file contents only.
        uintptr_t start = (info->dlpi_addr + header->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + header->p_vaddr + header->p_filesz) & ~(page - 1);
        if (relro_start < end && relro_end > start) {
            // Relocated, then made read-only: written once, so kept. RELRO sits at one end of
            // a segment in every layout linkers produce; keep the larger part outside it.
            uintptr_t below = relro_start > start ? relro_start - start : 0;
            uintptr_t above = end > relro_end ? end - relro_end : 0;
            if (below >= above) end = relro_start < end ? relro_start : end;
            else start = relro_end > start ? relro_end : start;
        }
        if (end <= start) continue;
        if (madvise((void *)start, end - start, MADV_DONTNEED) == 0) *advised += (long)(end - start);
    }
    return 0;
}

long crc_release_unwritten_segments(void) {
    long advised = 0;
    dl_iterate_phdr(release_object, &advised);
    return advised;
}

int crc_trim_free_heap(void) {
    return malloc_trim(0);
}

void crc_fix_malloc_thresholds(void) {
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
}
