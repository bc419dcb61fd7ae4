#ifndef CJEMALLOC_SHIM_H
#define CJEMALLOC_SHIM_H
#include <stddef.h>

// Debian's libjemalloc exports the standard allocator's names, so linking it makes it the process's allocator; only
// its control function is declared here (the full header redeclares malloc and friends, which Glibc's module owns).
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

/// The linked jemalloc's version, or NULL when the control call fails. Calling it is what keeps the library linked.
static inline const char *cjemalloc_version(void) {
    const char *version = NULL;
    size_t length = sizeof(version);
    return mallctl("version", &version, &length, NULL, 0) == 0 ? version : NULL;
}
#endif
