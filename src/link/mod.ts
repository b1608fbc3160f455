/**
 * A session's side of its roots' index services (contract §28, §28a): whether they can be
 * shared (share_indexes.ts), each service's name (service_name.ts), each root's link
 * (service_links.ts) and the questions put to its service (questions.ts) through the link
 * worker, the only code of a session that reaches a socket or starts a process
 * (link_worker.ts, link_messages.ts), and the scanner that puts each call to its root's
 * service and answers it whatever becomes of the service (shared_index.ts). The service
 * itself is `service/`; what they say to each other is `wire/`.
 *
 * May import: wire, index, workers, walk, query, config.ts, errors.ts.
 *
 * @module
 */
export { type ServiceCommand, shareIndexes, type ShareOptions } from "./share_indexes.ts";
export { SharedIndex } from "./shared_index.ts";
export { serviceName } from "./service_name.ts";
