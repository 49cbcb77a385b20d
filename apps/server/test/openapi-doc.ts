import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from './harness';

// The app's own /v1/openapi.json as the wire-contract suites read it (http/openapi.test.ts, the modules'
// wire*.test.ts): the document, and the readers of what an operation documents it answers.

/** A JSON schema, as far as the suites look into it. */
export type OpenApiSchema = {
  required?: string[];
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  anyOf?: OpenApiSchema[];
};

/** One operation of the document. */
export type OpenApiOperation = {
  operationId?: string;
  security?: unknown[];
  parameters?: { in: string }[];
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, { schema?: OpenApiSchema }> }>;
};

/** The document: its operations by path, then by lower-case method. */
export type OpenApiDoc = { paths: Record<string, Record<string, OpenApiOperation>> };

/** GET /v1/openapi.json of the app (it must answer 200). */
export async function readOpenApi(t: TestApp): Promise<OpenApiDoc> {
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OpenApiDoc;
}

/**
 * The file's test app and its document: opened and read before the file's tests (`timeout` for that, as
 * beforeAll takes it), closed after them. `suite.t` and `suite.doc` are set from then on.
 */
export function openApiSuite(timeout?: number): { readonly t: TestApp; readonly doc: OpenApiDoc } {
  const suite = {} as { t: TestApp; doc: OpenApiDoc };
  beforeAll(async () => {
    suite.t = await createTestApp();
    suite.doc = await readOpenApi(suite.t);
  }, timeout);
  afterAll(() => suite.t?.close());
  return suite;
}

/** The JSON content an operation documents for the answer `code` (the operation must be documented). */
export function jsonAnswer(doc: OpenApiDoc, method: string, path: string, code = '200') {
  const op = doc.paths[path]?.[method];
  expect(op, `${method} ${path}`).toBeDefined();
  return op?.responses?.[code]?.content?.['application/json'];
}

/** The schema of an operation's documented JSON answer (it must document one). */
export function successSchema(doc: OpenApiDoc, method: string, path: string, code = '200'): OpenApiSchema {
  const schema = jsonAnswer(doc, method, path, code)?.schema;
  expect(schema, `${method} ${path} ${code}`).toBeTruthy();
  return schema!;
}

/** The required keys of an operation's documented JSON answer; none where it documents no JSON answer. */
export function requiredKeys(doc: OpenApiDoc, method: string, path: string, code = '200'): string[] {
  return jsonAnswer(doc, method, path, code)?.schema?.required ?? [];
}

/** The required keys of a list answer's rows (the answer itself must be exactly `{ items }`). */
export function listRowKeys(doc: OpenApiDoc, method: string, path: string): string[] {
  const list = successSchema(doc, method, path);
  expect(list.required, path).toEqual(['items']);
  return list.properties?.items?.items?.required ?? [];
}
