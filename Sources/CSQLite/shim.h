// SQLite for MBTiles. SQLITE_TRANSIENT is a macro casting -1 to a function pointer.
#ifndef TEGULA_CSQLITE_SHIM_H
#define TEGULA_CSQLITE_SHIM_H
#include <sqlite3.h>
static inline sqlite3_destructor_type tegula_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline int tegula_sqlite_config_multithread(void) { return sqlite3_config(SQLITE_CONFIG_MULTITHREAD); }
#endif
