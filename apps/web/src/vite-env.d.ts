/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Comma-separated API origins (docs/product/api.md: several hosts, tried in turn). Default: same origin. */
  readonly VITE_API_BASES?: string;
}
