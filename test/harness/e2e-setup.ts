import { killSpawnedServices } from './spawned-service';

// Black-box suites start whole apps; a Kafka group join alone takes ~3 s on the mock broker.
jest.setTimeout(30_000);

// Whatever a failed test left running (it stopped before its own kill) goes with its file; this runs before the file's own afterAll hooks.
afterAll(killSpawnedServices);
