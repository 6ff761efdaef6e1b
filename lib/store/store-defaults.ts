/**
 * Decoded documents the SQLite engine keeps in memory per store by default (STORE_CACHE_DOCUMENTS). Apart, so reading
 * the setting loads no engine.
 */
export const DEFAULT_CACHE_DOCUMENTS = 4_096;

/** How long a client is told to wait before retrying a write refused for a full disk. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

/**
 * After a write refused for a full disk, the store is ready again only once this much is free (and a write succeeds).
 */
export const FREE_SPACE_TO_RECOVER = 4 * 1024 * 1024;
