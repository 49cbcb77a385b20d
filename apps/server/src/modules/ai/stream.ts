import { PassThrough } from 'node:stream';
import { type AiStreamLine, type Locale, translate } from '@otklik/shared';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';

// Streaming suggestions (issue 21): the provider's answer arrives as server-sent events
// (`data: {choices:[{delta:{content}}]}` … `data: [DONE]`, the OpenAI chat-completions stream that
// llama.cpp, Ollama and vLLM speak too) and goes on to the composer as JSON lines (AiStreamLine), so
// the operator reads the text while it is written and can stop it. Stopping closes the connection;
// the provider's request is aborted with it, so nothing is generated for nobody.

/** The text pieces of an OpenAI-compatible SSE stream, in order; tolerant of split lines and comments. */
export async function* readDeltas(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      let parsed: { choices?: { delta?: { content?: unknown } }[] };
      try {
        parsed = JSON.parse(data) as typeof parsed;
      } catch {
        continue;
      }
      const content = parsed.choices?.[0]?.delta?.content;
      if (typeof content === 'string' && content) yield content;
    }
  }
}

function errorLine(
  locale: Locale,
  key: 'ai.provider.timeout' | 'ai.provider.empty' | 'ai.provider.interrupted',
) {
  const line: AiStreamLine = {
    error: translate(locale, key),
    error_type: 'ai_provider',
  };
  return `${JSON.stringify(line)}\n`;
}

/**
 * Relays the provider's stream as JSON lines into a stream the route sends. `cancelled` is the
 * caller's signal (the operator stopped, the connection closed): then the relay stops quietly.
 * A failure after the first byte cannot change the HTTP status any more, so it is the last line.
 */
export function relay(
  provider: Response,
  options: { locale: Locale; cancelled: AbortSignal; log: Logger },
): PassThrough {
  const out = new PassThrough();
  const write = (line: AiStreamLine) => out.write(`${JSON.stringify(line)}\n`);
  void (async () => {
    let text = '';
    try {
      if (!provider.body) throw new AppError(502, 'ai.provider.empty');
      for await (const delta of readDeltas(provider.body)) {
        text += delta;
        write({ delta });
      }
      if (!text.trim()) out.end(errorLine(options.locale, 'ai.provider.empty'));
      else {
        write({ done: true, text: text.trim() });
        out.end();
      }
    } catch (error) {
      if (options.cancelled.aborted) {
        out.destroy();
        return;
      }
      const name = (error as Error).name;
      const timeout = name === 'TimeoutError' || name === 'AbortError';
      options.log.warn({ err: error }, 'ai stream: the provider stream failed');
      out.end(errorLine(options.locale, timeout ? 'ai.provider.timeout' : 'ai.provider.interrupted'));
    }
  })();
  return out;
}
