/**
 * The server's icon for clients that show one (contract §4; MCP 2025-11-25 `icons` on
 * `serverInfo`): a clock on a blue square, as a 48x48 PNG (the type every client that
 * shows icons must support) and as SVG, both `data:` URIs so that nothing is fetched.
 *
 * @module
 */

const PNG_48 =
  "iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAYAAABXAvmHAAAA/0lEQVR42u2awQ3DMAhFmaS3HjJDx+lK3aBLdKcO0UqRcmkcBzDY+JcvcUz0XwwRxiZi6Hp/f0YEaTXKsAlQVPMsiOjmqxCzmC9CzGZ+B5EACdAAYPlCrkwhPE0/nq81PGHI84tzAFohqNX8ZpJjtPZMV4CSoZIuy22NIwiLlSCvQj0DsEon8jKvBZBCkCbnvQA0NUHaorUG0Bb1f6yAVtoakEAkACzAZr4FwhRA2i78AhxF7W+UAFApNEIJAAOgbSWkCtfMSc2Ha+ZCrUDPWgizpfQ2776p56ZL1009xFgFYrAFMVoMMdzN84EESACAY1aIg26IqwYQlz1mu27zBQ9pyX9G7KpyAAAAAElFTkSuQmCC";

const SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48">',
  '<rect width="48" height="48" rx="9" fill="#2563eb"/>',
  '<circle cx="24" cy="24" r="15.5" fill="#fff"/>',
  '<path d="M24 24V13M24 24h8" stroke="#1e293b" stroke-width="2.4" stroke-linecap="round"/>',
  '<circle cx="24" cy="24" r="2.2" fill="#1e293b"/>',
  "</svg>",
].join("");

/** The icons of `serverInfo`. */
export const SERVER_ICONS = [
  { src: `data:image/png;base64,${PNG_48}`, mimeType: "image/png", sizes: ["48x48"] },
  {
    src: `data:image/svg+xml;base64,${btoa(SVG)}`,
    mimeType: "image/svg+xml",
    sizes: ["any"],
  },
];
