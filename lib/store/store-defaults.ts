/** Decoded documents the SQLite engine keeps in memory per store by default (STORE_CACHE_DOCUMENTS). Apart, so reading the setting loads no engine. */
export const DEFAULT_CACHE_DOCUMENTS = 4_096;
