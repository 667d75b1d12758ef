import { describeExportSlotsContract } from './export-slots.contract';
import { MemoryExportSlots } from './memory-export-slots';

describeExportSlotsContract('memory', async () => new MemoryExportSlots());
