import { describeExportSlotsContract } from './export-slots.contract-spec';
import { MemoryExportSlots } from './memory-export-slots';

describeExportSlotsContract('memory', async () => new MemoryExportSlots());
