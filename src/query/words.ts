/**
 * How the words for people and models name the inputs and the next page: the MCP tool
 * speaks in its argument names (`'includeDirectories'`, "call again with 'cursor' set to
 * nextCursor"); the command line speaks in its flags (`--dirs`, "run the 'Next page:'
 * command below"). The summary line and the empty-answer hints take one of these.
 *
 * @module
 */

/** The boolean inputs a hint may ask the reader to turn on. */
export type Switch = "includeDirectories" | "includeUnknownTime" | "includeVcs";

/** One way of naming inputs and the next page. */
export interface Words {
  /** An input as its reader writes it: `'limit'` for a model, `--limit` on the command line. */
  input(name: string): string;
  /** How to turn a boolean input on: `set includeUnknownTime to true`, `add --include-unknown-time`. */
  turnOn(name: Switch): string;
  /** How to get the next page, as the end of a sentence. */
  nextPage: string;
  /** How the reader asks for files only (the default), said when no kind is asked for. */
  filesOff: string;
  /**
   * Whether "more on the next page" is said as a note of its own: for a person at the
   * command line; a model has `nextCursor` (and the count says the page is not all).
   */
  morePages: boolean;
}

/** The MCP tool's words: its own argument names. */
export const TOOL_WORDS: Words = {
  input: (name) => `'${name}'`,
  turnOn: (name) => `set ${name} to true`,
  nextPage: "call again with 'cursor' set to nextCursor",
  filesOff: "includeFiles is false and includeDirectories is not true",
  morePages: false,
};
