/**
 * One index per root for every session (contract §28): a root's index service (service.ts,
 * service_session.ts), started by the first session that needs it and reached by every
 * other over a unix socket in the user's socket folder (socket_folder.ts, wire.ts); and a
 * session's side of it (share_indexes.ts, service_links.ts, link_worker.ts,
 * shared_index.ts), which answers every call whatever becomes of the service.
 *
 * May import: index, workers, walk, query, changes, config.ts, errors.ts, worker_modules.ts.
 *
 * @module
 */
export { runService, type ServiceSettings } from "./service.ts";
export { type ServiceCommand, shareIndexes, type ShareOptions } from "./share_indexes.ts";
export { SharedIndex } from "./shared_index.ts";
