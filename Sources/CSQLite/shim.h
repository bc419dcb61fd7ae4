#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// Turns SQLite's memory statistics off. They take a process-wide mutex around every allocation SQLite makes, and
/// tweetsh reads none of them. `sqlite3_config` is variadic, which Swift cannot call, hence this shim; it only
/// takes effect before the library is first initialised, and returns SQLITE_MISUSE (harmlessly) afterwards.
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
