// Black-box suites start whole apps; a Kafka group join alone takes ~3 s on the mock broker.
jest.setTimeout(30_000);
