import { runMain } from '@bpc/composition';
import { projectorApp } from './projector.app';

void runMain('projector', [projectorApp]);
