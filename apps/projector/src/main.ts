import { runMain } from '@bpc/platform';
import { projectorApp } from './projector.app';

void runMain('projector', [projectorApp]);
