/**
 * A root's index service (contract §28, §28a): the process (service.ts), one connection
 * to it (service_session.ts) whose every message is checked first (service_messages.ts),
 * its claim on each root's socket (socket_claim.ts), its lock and what dead services left
 * (socket_sweep.ts), `file-time-search status` and `stop` (service_control.ts), and the
 * walks of calls while an index is built (joint_walks.ts). A
 * session's side of it is `link/`; what they say to each other is `wire/`.
 *
 * Not `changes`, whose arguments load zod: a service never parses a tool's arguments.
 *
 * May import: wire, index, paging, workers, walk, query, ports, config.ts, errors.ts.
 *
 * @module
 */
export { runService } from "./service.ts";
export {
  type ControlIo,
  findServices,
  type Found,
  pssOf,
  servicesCommand,
  stopService,
} from "./service_control.ts";
