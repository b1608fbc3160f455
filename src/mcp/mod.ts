/**
 * The MCP adapter: the SDK server on a line transport, the published tools and their
 * schemas, results and logging (contract §3, §4, §12, §15, §16), and `serve()`, which
 * wires the engine together.
 *
 * May import: link, changes, search, index, workers, paging, query, walk, security, ports, config.ts,
 * errors.ts, presentation.ts, result_words.ts.
 *
 * @module
 */
export { type Log } from "./logging.ts";
export { createServer, serve, type ServeOptions, type ServerDeps } from "./server.ts";
