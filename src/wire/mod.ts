/**
 * The wire between a session and an index service (contract §28, §28a): the messages
 * (wire.ts) and how they are written and read (lines.ts), where a user's services listen
 * and how each is named (socket_folder.ts), and the program's build that names them
 * (build.ts). Small on purpose: a session's link worker loads it and nothing of the index.
 *
 * May import: index, query, walk.
 *
 * @module
 */
export * from "./wire.ts";
export * from "./lines.ts";
export * from "./socket_folder.ts";
export * from "./build.ts";
