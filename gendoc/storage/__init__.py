"""Storage: the cache, the lock and atomic, deterministic writes."""
