/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base of the JSON API; defaults to "/api" on the same origin. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
