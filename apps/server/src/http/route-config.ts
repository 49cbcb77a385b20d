// Per-route options (Fastify `config`) that hooks read.

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes customer text in its JSON body and makes it storable itself (NUL, lone surrogates:
     * the ingestion API cleans them in ingest() and answers per item), so a global input check must let
     * such bodies through instead of answering 400.
     */
    sanitizesOwnInput?: boolean;
  }
}

export {};
