/**
 * Tool names every client accepts (contract §15): the contract's dotted names, or the
 * same with `_` for clients that only accept `^[a-zA-Z0-9_-]{1,64}$`. `tools/list`
 * shows one style, and every text a model reads (the tools' descriptions and their
 * schemas' words, a result's line, summary and notes, an error's message and fix) names
 * the tools in that style, so that a name copied from them is one the client offers;
 * `tools/call` accepts both.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolNames } from "../config.ts";

/** The tools' dotted names. */
const DOTTED = ["fs.search_by_time", "fs.list_roots", "fs.changes_since"] as const;

/** A name in the given style: `fs.search_by_time` or `fs_search_by_time`. */
export function styledName(dotted: string, style: ToolNames): string {
  return style === "underscore" ? dotted.replaceAll(".", "_") : dotted;
}

/** `text` with every tool's name in `style`. */
export function styledText(text: string, style: ToolNames): string {
  if (style === "dotted") return text;
  return DOTTED.reduce((t, name) => t.replaceAll(name, styledName(name, style)), text);
}

/** The tools as `tools/list` shows them in `style`: names and every word, in that style. */
export function styledTools(tools: readonly Tool[], style: ToolNames): Tool[] {
  return tools.map((tool) => JSON.parse(styledText(JSON.stringify(tool), style)) as Tool);
}

/**
 * A result as the client sees it in `style`: its text, and its structured result's words
 * (`summary`, each note); never its data (a path may hold any name).
 */
export function styledResult(result: CallToolResult, style: ToolNames): CallToolResult {
  if (style === "dotted") return result;
  const text = (t: string) => styledText(t, style);
  const structured = result.structuredContent as
    | { summary?: string; notes?: { code: string; message: string }[] }
    | undefined;
  const words = structured?.summary === undefined ? {} : {
    summary: text(structured.summary),
    ...(structured.notes
      ? { notes: structured.notes.map((n) => ({ ...n, message: text(n.message) })) }
      : {}),
  };
  const styled = structured === undefined ? undefined : { ...structured, ...words };
  return {
    ...result,
    content: result.content.map((item: CallToolResult["content"][number], i: number) =>
      item.type !== "text"
        ? item
        : { ...item, text: i === 1 && styled ? JSON.stringify(styled) : text(item.text) }
    ),
    ...(styled ? { structuredContent: styled } : {}),
  };
}

/** The dotted name of the tool a call names in either style, if it is one of `tools`. */
export function calledTool(name: string, tools: readonly Tool[]): string | undefined {
  return tools.find((t) => t.name === name || styledName(t.name, "underscore") === name)?.name;
}
