/**
 * The test options for tests that start workers or servers: their ops and resources end
 * after the test's own body (a worker's last messages, a child's pipes), so Deno's
 * leak sanitizers are off for them. Spread it into `Deno.test({ ...sanitize, ... })`.
 *
 * @module
 */
export const sanitize: { sanitizeOps: false; sanitizeResources: false } = {
  sanitizeOps: false,
  sanitizeResources: false,
};
