/**
 * Asserting a contract error: what tests of argument checks share.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";

/** Asserts that `fn` throws a ToolError with `code` (said with `what`), and returns it. */
export function throwsCode(fn: () => unknown, code: string, what = ""): ToolError {
  let caught: unknown;
  try {
    const out = fn();
    assert.fail(`${what} was accepted as ${JSON.stringify(out)}`);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ToolError, `${what}: expected a ToolError, got ${String(caught)}`);
  assert.equal(caught.code, code, `${what}: ${caught.message}`);
  return caught;
}
