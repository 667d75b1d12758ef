import { columnsOf, EXPLORER_CATALOG, ExplorerDef, ExplorerLimits, filtersOf } from '../catalog/explorer-catalog';

/**
 * The discovery document, straight from the catalog (pure). The calling
 * account's limits appear on every entry (the specification lists
 * `limits.*` per explorer) and once at the top.
 */
export function discoveryDocument(limits: ExplorerLimits) {
  return { explorers: EXPLORER_CATALOG.map((explorer) => discoveryEntry(explorer, limits)), limits: accountLimits(limits) };
}

/** One catalog as discovery shows it: the Data Explorer lists its explorers so; render history answers its own alone. */
export function discoveryEntry(explorer: ExplorerDef, limits: ExplorerLimits) {
  return {
    key: explorer.key,
    features: { ...explorer.features },
    modes: explorer.modes.map((mode) => ({
      key: mode.key,
      default: mode.default,
      columns: columnsOf(explorer, mode.key).map((c) => ({ key: c.key, title: c.title, group: c.group, dataType: c.dataType, sortable: c.sortable, modes: [...c.modes] })),
      filters: filtersOf(explorer, mode.key).map((f) => ({
        field: f.field,
        title: f.title,
        type: f.type,
        required: f.required,
        modes: [...f.modes],
        operators: [...f.operators],
        valuelessOperators: [...f.valuelessOperators],
        ...(f.options ? { options: f.options.map((o) => ({ ...o })) } : {}),
      })),
      defaults: { columns: [...mode.defaults.columns], sort: mode.defaults.sort, sortDir: mode.defaults.sortDir, period: mode.defaults.period },
    })),
    periods: { presets: [...explorer.periods.presets], customFormat: explorer.periods.customFormat, timeBounds: explorer.periods.timeBounds, maxRangeDays: explorer.periods.maxRangeDays },
    limits: accountLimits(limits),
  };
}

function accountLimits(limits: ExplorerLimits) {
  return { perPageMax: limits.perPageMax, perPageDefault: limits.perPageDefault, exportRowCap: limits.exportRowCap };
}

export type DiscoveryDocument = ReturnType<typeof discoveryDocument>;
export type DiscoveryEntry = ReturnType<typeof discoveryEntry>;
