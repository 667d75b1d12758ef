import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Compresses what the public API serves (the dashboard's files, API JSON,
 * CSV downloads) with brotli or gzip, whichever the client's
 * `Accept-Encoding` prefers, brotli on a tie. The plugin's defaults are the
 * right ones and are kept: bodies under 1 KiB go as they are, brotli at
 * quality 4 (fast enough for answers made per request), event streams never
 * (compressing them would hold events back). Request bodies are not
 * decompressed: the API takes plain JSON, as before.
 */
export async function installResponseCompression(fastify: FastifyInstance): Promise<void> {
  // Loaded now, before any route is added: the plugin attaches itself to each route as it is added, and misses those added before.
  await fastify.register(fastifyCompress, { global: true, encodings: ['br', 'gzip'], globalDecompression: false });
}
