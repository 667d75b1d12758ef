import { auditEventsOfThisFile, auditRemainingEvents } from './event-audit';
import { killSpawnedServices } from './spawned-service';

// Black-box suites start whole apps; a Kafka group join alone takes ~3 s on the mock broker.
jest.setTimeout(30_000);

// Whatever a failed test left running (it stopped before its own kill) goes with its file; this runs before the file's own afterAll hooks.
afterAll(killSpawnedServices);

// Every event the file's apps recorded, in either mode, matches the published schemas (see event-audit.ts); after the kill, so spawned logs are still.
auditEventsOfThisFile();
afterAll(() => auditRemainingEvents(process.env.TEST_KAFKA_BROKERS));
