/**
 * The explorer store's tables: one folder per table (or group of tables
 * written together) under this one, each with its DDL (`NNN_*.sql`, applied
 * in file name order by the store's `migrate`; the build copies them to
 * `dist/` with the code), its name, its row type and the queries every user
 * of the table shares (`<table>.table.ts`).
 */
export const EXPLORER_DDL_DIR = __dirname;
