// The image's healthcheck (the slim Node image ships no curl): exits 0 when
// the app on the given port (default 3000) answers 2xx on /health/ready.
// Usage: node deploy/healthcheck.mjs [port]
const port = Number(process.argv[2] ?? process.env.BPC_HEALTH_PORT ?? 3000);
try {
  const answer = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(4000) });
  process.exit(answer.ok ? 0 : 1);
} catch {
  process.exit(1);
}
