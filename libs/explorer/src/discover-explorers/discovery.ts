import { columnsOf, EXPLORER_CATALOG, ExplorerLimits, filtersOf } from '../catalog/explorer-catalog';

/**
 * The discovery document, straight from the catalog (pure). The calling
 * account's limits appear on every entry (the specification lists
 * `limits.*` per explorer) and once at the top.
 */
export function discoveryDocument(limits: ExplorerLimits) {
  const accountLimits = () => ({ perPageMax: limits.perPageMax, perPageDefault: limits.perPageDefault, exportRowCap: limits.exportRowCap });
  return {
    explorers: EXPLORER_CATALOG.map((explorer) => ({
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
      limits: accountLimits(),
    })),
    limits: accountLimits(),
  };
}

export type DiscoveryDocument = ReturnType<typeof discoveryDocument>;
