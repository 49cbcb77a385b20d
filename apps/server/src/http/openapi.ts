// What every operation of `/v1/openapi.json` carries besides its own schemas: an operationId (a stable
// name for generated clients and the docs page's links) and the errors it can answer, all in the one
// error shape of handleError (`{ error, error_type?, fields? }`, `error` in the caller's language).
// A route may name its operation itself (`schema.operationId`) or declare an error response of its own
// (a 409 with its `error_type`s, say); what it declares is kept.
import type { FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The JSON Schema of every error answer. */
export const errorResponseSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', description: "What went wrong, in the caller's language" },
    error_type: { type: 'string', description: 'A stable code for the kind of error, where one is defined' },
    fields: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Per input field: what is wrong with it',
    },
  },
} as const;

const errorDescriptions = {
  400: 'The input is invalid (fields names each wrong field)',
  401: 'No valid access token',
  402: "The space's paid period is over",
  403: 'The token does not allow this (role, group limits, scope, or feature of the tariff)',
  404: 'Not found in the caller’s spaces',
  500: 'Unexpected server error',
} as const;

/**
 * `GET /v1/items/:id/replies` → `getItemsByIdReplies`: the method, then the path's words (`v1` left out),
 * each path parameter as `By<Name>`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((part) => part && part !== 'v1')
    .flatMap((part) => {
      const param = part.startsWith(':') || part.startsWith('{');
      const clean = part.replace(/^[:{]|}$/g, '');
      const pieces = clean.split(/[^A-Za-z0-9]+/).filter(Boolean);
      const pascal = pieces.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
      return param ? [`By${pascal}`] : [pascal];
    });
  return `${method.toLowerCase()}${words.join('')}` || method.toLowerCase();
}

type Transform = typeof jsonSchemaTransform;

/** jsonSchemaTransform (zod → JSON Schema), then the operationId and the documented errors. */
export const openApiTransform: Transform = (input) => {
  const out = jsonSchemaTransform(input);
  const route = input.route as RouteOptions;
  const schema = { ...(out.schema as FastifySchema & Record<string, unknown>) };
  if ((schema as { hide?: boolean }).hide) return out;
  const method = Array.isArray(route.method) ? route.method[0]! : route.method;
  if (!schema.operationId) schema.operationId = operationIdOf(String(method), out.url);
  const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
  const secured = Array.isArray(schema.security) && schema.security.length > 0;
  const hasInput = Boolean(schema.body || schema.querystring || schema.params);
  const hasPathId = /[:{]/.test(out.url);
  const codes: (keyof typeof errorDescriptions)[] = [];
  if (hasInput) codes.push(400);
  if (secured) codes.push(401, 402, 403);
  if (hasPathId) codes.push(404);
  codes.push(500);
  for (const code of codes) {
    if (response[code] !== undefined || response[String(code)] !== undefined) continue;
    response[code] = { description: errorDescriptions[code], ...errorResponseSchema };
  }
  schema.response = response;
  return { schema, url: out.url };
};
