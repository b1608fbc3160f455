/**
 * Tool names every client accepts (contract §15): the contract's dotted names, or the
 * same with `_` for clients that only accept `^[a-zA-Z0-9_-]{1,64}$`. `tools/list`
 * shows one style; `tools/call` accepts both.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolNames } from "../config.ts";

/** A name in the given style: `fs.search_by_time` or `fs_search_by_time`. */
export function styledName(dotted: string, style: ToolNames): string {
  return style === "underscore" ? dotted.replaceAll(".", "_") : dotted;
}

/**
 * The tools as `tools/list` shows them in `style`: names, and every mention of a tool's
 * name in a description, in that style.
 */
export function styledTools(tools: readonly Tool[], style: ToolNames): Tool[] {
  if (style === "dotted") return [...tools];
  const rename = (text: string) =>
    tools.reduce((t, tool) => t.replaceAll(tool.name, styledName(tool.name, style)), text);
  return tools.map((tool) => ({
    ...tool,
    name: styledName(tool.name, style),
    ...(tool.description === undefined ? {} : { description: rename(tool.description) }),
  }));
}

/** The dotted name of the tool a call names in either style, if it is one of `tools`. */
export function calledTool(name: string, tools: readonly Tool[]): string | undefined {
  return tools.find((t) => t.name === name || styledName(t.name, "underscore") === name)?.name;
}
