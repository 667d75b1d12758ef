/**
 * The explorer tables' DDL: the `*.sql` files beside this module, applied in
 * name order by the explorer store's `migrate` (the build copies them to
 * `dist/` with the code). Each table's file sits beside the row mapping that
 * writes it (`explorer-projection.ts`) and the projector that fills it.
 */
export const EXPLORER_DDL_DIR = __dirname;
