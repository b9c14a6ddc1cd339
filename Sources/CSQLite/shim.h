// The system's SQLite (libsqlite3-dev), for SQLiteStore.
#include <sqlite3.h>
