/** The version segment every API path starts with (the interface's `{base_url}`). */
export const API_VERSION = '2025-10-13';
